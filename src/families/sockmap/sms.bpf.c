// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The sockmap bench (the kernel bench's of that name): the programs a sockmap of a run's
 * loopback TCP sockets runs on their traffic. Receive side (sk_skb): a stream parser that
 * cuts the stream into messages of mb_sms_msg_size bytes (--rx-strp), a verdict that
 * redirects each message to the socket at key 1, to its send queue or (BPF_F_INGRESS in
 * mb_sms_dir) its receive queue, and a verdict that lets it through. Send side (sk_msg): a
 * verdict that redirects each message to key 1, one that lets it through. Every verdict
 * adds the bytes it saw to mb_sms_bytes, which user space reads as the BPF figure.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "Dual BSD/GPL";

__u64 mb_sms_bytes;		/* bytes the verdicts saw */
__u64 mb_sms_drops;		/* redirects the kernel refused */
__u32 mb_sms_msg_size;		/* the stream parser's message length */
__u64 mb_sms_dir;		/* the redirects' flags: 0 (egress) or BPF_F_INGRESS */

struct {
	__uint(type, BPF_MAP_TYPE_SOCKMAP);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} mb_sms_rx SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_SOCKMAP);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} mb_sms_tx SEC(".maps");

SEC("sk_skb/stream_parser")
int mb_sms_parser(struct __sk_buff *skb)
{
	return mb_sms_msg_size;
}

SEC("sk_skb/stream_verdict")
int mb_sms_skb_redirect(struct __sk_buff *skb)
{
	long ret = bpf_sk_redirect_map(skb, &mb_sms_rx, 1, mb_sms_dir);

	__sync_fetch_and_add(&mb_sms_bytes, skb->len);
	if (ret != SK_PASS)
		__sync_fetch_and_add(&mb_sms_drops, 1);
	return ret;
}

SEC("sk_skb/stream_verdict")
int mb_sms_skb_pass(struct __sk_buff *skb)
{
	__sync_fetch_and_add(&mb_sms_bytes, skb->len);
	return SK_PASS;
}

SEC("sk_msg")
int mb_sms_msg_redirect(struct sk_msg_md *msg)
{
	long ret = bpf_msg_redirect_map(msg, &mb_sms_tx, 1, mb_sms_dir);

	__sync_fetch_and_add(&mb_sms_bytes, msg->size);
	if (ret != SK_PASS)
		__sync_fetch_and_add(&mb_sms_drops, 1);
	return ret;
}

SEC("sk_msg")
int mb_sms_msg_pass(struct sk_msg_md *msg)
{
	__sync_fetch_and_add(&mb_sms_bytes, msg->size);
	return SK_PASS;
}
