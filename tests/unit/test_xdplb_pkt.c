// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * xdp-lb's scenarios and packets (families/xdplb): the kernel's 24 names in its order; every
 * packet well formed (lengths, the IPv4 checksum, the ports); what the balancer must send
 * back, worked out by hand for one scenario and by its rules for all; the comparison that
 * the check before timing makes, with the ranges a cold call varies.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <arpa/inet.h>
#include <linux/bpf.h>

#include "families/xdplb/xl.h"

static const char *const kernel_names[] = {
	"tcp-v4-lru-hit", "tcp-v4-ch", "tcp-v6-lru-hit", "tcp-v6-ch", "udp-v4-lru-hit",
	"udp-v6-lru-hit", "tcp-v4v6-lru-hit", "tcp-v4-lru-diverse", "tcp-v4-ch-diverse",
	"tcp-v6-lru-diverse", "tcp-v6-ch-diverse", "udp-v4-lru-diverse", "tcp-v4-lru-miss",
	"udp-v4-lru-miss", "tcp-v4-lru-warmup", "tcp-v4-syn", "tcp-v4-rst-miss",
	"pass-v4-no-vip", "pass-v6-no-vip", "pass-v4-icmp", "pass-non-ip", "drop-v4-frag",
	"drop-v4-options", "drop-v6-frag",
};

static void test_names(void **state)
{
	(void)state;
	assert_int_equal(sizeof(kernel_names) / sizeof(*kernel_names), XL_NR_SCENARIOS);
	for (int i = 0; i < XL_NR_SCENARIOS; i++) {
		assert_string_equal(xl_scenarios[i].name, kernel_names[i]);
		assert_ptr_equal(xl_scenario_find(kernel_names[i]), &xl_scenarios[i]);
		assert_non_null(xl_scenarios[i].desc);
	}
	assert_null(xl_scenario_find("tcp-v4-lru"));
	assert_null(xl_scenario_find(""));
	assert_non_null(xl_scenario_find(XL_DEFAULT_SCENARIO));
}

/* The ones' complement sum of an IPv4 header, its checksum included: 0xffff when right. */
static uint16_t fold(const uint8_t *h, int len)
{
	uint32_t sum = 0;

	for (int i = 0; i < len; i += 2)
		sum += (uint32_t)(h[i] << 8 | h[i + 1]);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

static uint16_t be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/* Each packet: the Ethernet header, IP lengths that add up, the checksum, the ports. */
static void test_packets(void **state)
{
	uint8_t buf[XL_PKT_MAX];

	(void)state;
	for (int i = 0; i < XL_NR_SCENARIOS; i++) {
		const struct xl_scenario *s = &xl_scenarios[i];
		uint32_t len = xl_pkt_build(s, buf), l4;
		uint16_t proto = be16(buf + 12);

		assert_true(len > 14 && len <= XL_PKT_MAX);
		assert_memory_equal(buf, xl_lb_mac, 6);
		assert_memory_equal(buf + 6, xl_client_mac, 6);
		if (proto == XL_ETH_P_IP) {
			assert_int_equal(buf[14] >> 4, 4);
			assert_int_equal(be16(buf + 16), len - 14);
			assert_int_equal(fold(buf + 14, 20), 0xffff);
			assert_memory_equal(buf + 26, s->src, 4);
			assert_memory_equal(buf + 30, s->vip, 4);
			l4 = 14 + (buf[14] & 0xf) * 4;
		} else if (proto == XL_ETH_P_IPV6) {
			assert_int_equal(buf[14] >> 4, 6);
			assert_int_equal(be16(buf + 18), len - 54);
			assert_memory_equal(buf + 22, s->src, 16);
			l4 = 54 + (s->frag ? 8 : 0);
		} else {
			assert_int_equal(proto, XL_ETH_P_ARP);
			continue;
		}
		if (s->proto == XL_PROTO_TCP || s->proto == XL_PROTO_UDP) {
			assert_int_equal(be16(buf + l4), s->sport);
			assert_int_equal(be16(buf + l4 + 2), s->dport);
		}
	}
}

/* tcp-v4-lru-hit by hand: IPIP from 172.16.(2^0x30).(1^0x39) to 192.168.1.2. */
static void test_expect_by_hand(void **state)
{
	const struct xl_scenario *s = xl_scenario_find("tcp-v4-lru-hit");
	static const uint8_t src[4] = { 172, 16, 2 ^ 0x30, 1 ^ 0x39 };
	uint8_t in[XL_PKT_MAX];
	struct xl_expect e;
	uint32_t len = xl_pkt_build(s, in);

	(void)state;
	xl_pkt_expect(s, in, len, &e);
	assert_int_equal(e.len, len + 20);
	assert_memory_equal(e.data, xl_router_mac, 6);
	assert_memory_equal(e.data + 6, xl_lb_mac, 6);
	assert_int_equal(be16(e.data + 12), XL_ETH_P_IP);
	assert_int_equal(e.data[14], 0x45);
	assert_int_equal(be16(e.data + 16), len - 14 + 20);
	assert_int_equal(e.data[22], 64);
	assert_int_equal(e.data[23], XL_PROTO_IPIP);
	assert_memory_equal(e.data + 26, src, 4);
	assert_memory_equal(e.data + 30, xl_tunnel_v4, 4);
	assert_int_equal(fold(e.data + 14, 20), 0xffff);
	assert_memory_equal(e.data + 34, in + 14, len - 14);
	assert_int_equal(e.nr_skips, 0);
}

/* Every scenario by the rules: sent ones grow by their outer header, passed ones stay. */
static void test_expect_all(void **state)
{
	uint8_t in[XL_PKT_MAX];
	struct xl_expect e;

	(void)state;
	for (int i = 0; i < XL_NR_SCENARIOS; i++) {
		const struct xl_scenario *s = &xl_scenarios[i];
		uint32_t len = xl_pkt_build(s, in), outer = s->outer_v6 ? 40 : 20;

		xl_pkt_expect(s, in, len, &e);
		if (s->action == XDP_DROP) {
			assert_int_equal(e.len, 0);
			continue;
		}
		if (s->action == XDP_PASS) {
			assert_int_equal(e.len, len);
			assert_memory_equal(e.data, in, len);
			continue;
		}
		assert_int_equal(e.len, len + outer);
		assert_int_equal(be16(e.data + 12), s->outer_v6 ? XL_ETH_P_IPV6 : XL_ETH_P_IP);
		assert_memory_equal(e.data + 14 + outer, in + 14, len - 14);
		if (s->outer_v6) {
			assert_int_equal(e.data[14 + 6], s->v6 ? XL_PROTO_IPV6 : XL_PROTO_IPIP);
			assert_int_equal(be16(e.data + 18), len - 14);
			assert_int_equal(e.data[22], 0x01);	/* 0100::/64 */
			assert_memory_equal(e.data + 38, xl_tunnel_v6, 16);
		} else {
			assert_int_equal(fold(e.data + 14, 20), 0xffff);
		}
		assert_int_equal(e.nr_skips, s->cold ? 3 : 0);
	}
}

/* The comparison: equal, a byte off, a skipped byte off, a length off. */
static void test_diff(void **state)
{
	const struct xl_scenario *s = xl_scenario_find("tcp-v4-lru-miss");
	uint8_t in[XL_PKT_MAX], got[XL_OUT_MAX];
	struct xl_expect e;
	uint32_t len = xl_pkt_build(s, in);

	(void)state;
	xl_pkt_expect(s, in, len, &e);
	memcpy(got, e.data, e.len);
	assert_int_equal(xl_pkt_diff(&e, got, e.len), -1);
	/* A cold call's outer source, its checksum and the client's source may differ. */
	got[26] ^= 0xff;
	got[24] ^= 0xff;
	got[14 + 20 + 12] ^= 0xff;
	assert_int_equal(xl_pkt_diff(&e, got, e.len), -1);
	got[40] ^= 1;
	assert_int_equal(xl_pkt_diff(&e, got, e.len), 40);
	got[40] ^= 1;
	assert_int_equal(xl_pkt_diff(&e, got, e.len - 1), e.len - 1);
	s = xl_scenario_find("tcp-v4-lru-hit");
	len = xl_pkt_build(s, in);
	xl_pkt_expect(s, in, len, &e);
	memcpy(got, e.data, e.len);
	got[26] ^= 0xff;
	assert_int_equal(xl_pkt_diff(&e, got, e.len), 26);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_packets),
		cmocka_unit_test(test_expect_by_hand),
		cmocka_unit_test(test_expect_all),
		cmocka_unit_test(test_diff),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
