// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * reuseport-select, after the run: what the program counted against what the sockets took.
 * Each socket must have received exactly the datagrams or connections the program selected it
 * for, none may be left waiting in any socket, and every op must have been one run of the
 * program; else the run fails instead of reporting a time.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/types.h>

#include "rp_select.h"
#include "rp_shared.h"
#include "rp_select.skel.h"
#include "util/json.h"

/* What is still queued on the group's sockets: datagrams, or connections (accepted, closed). */
static uint64_t strays(const struct rp_state *st)
{
	uint64_t n = 0, buf;

	for (uint32_t i = 0; i < st->g.nr; i++) {
		for (;;) {
			int fd;

			if (st->g.proto == RP_UDP) {
				if (recv(st->g.fd[i], &buf, sizeof(buf), MSG_DONTWAIT) < 0)
					break;
			} else {
				fd = accept4(st->g.fd[i], NULL, NULL, SOCK_CLOEXEC);
				if (fd < 0)
					break;
				close(fd);
			}
			n++;
		}
	}
	return n;
}

/* Slots whose selections differ from what their socket took. */
static uint32_t slots_differ(const struct rp_state *st)
{
	const __u64 *sel = st->sel->skel->bss->mb_rp_per_slot;
	uint32_t n = 0;

	for (uint32_t i = 0; i < st->g.nr; i++)
		n += sel[i] != st->sel->received[i];
	return n;
}

static void describe(struct mb_run *run, const struct rp_state *st, uint64_t left,
		     uint32_t differ)
{
	const struct mb_rp_stats *ps = &st->sel->skel->bss->mb_rp_st;
	struct mb_json *x = mb_run_extra(run), *chk = mb_json_child(x, "ops_checked");
	int tr = st->sel->test_run_err;

	mb_json_set_str(x, "proto", rp_proto_names[st->args->proto]);
	mb_json_set_num(x, "port", st->g.port);
	mb_json_set_num(x, "sockets", st->g.nr);
	mb_json_set_num(x, "slots", st->args->nr_entries);
	mb_json_set_str(x, "op", st->args->proto == RP_UDP ?
			"a datagram sent over loopback; the program selects socket hash % n" :
			"a TCP connection made over loopback; the program selects listener hash % n");
	mb_json_set_str(x, "test_run", !tr ? "ran" : tr == -524 ?
			"refused: ENOTSUPP (no BPF_PROG_TEST_RUN for sk_reuseport)" : strerror(-tr));
	mb_json_set_num(chk, "ops", (double)st->done.ops);
	mb_json_set_num(chk, "ok", (double)st->done.hits);
	mb_json_set_num(chk, "errors", (double)st->done.errors);
	mb_json_set_num(chk, "program_runs", (double)(ps->runs - st->sel->runs0));
	mb_json_set_num(chk, "selected", (double)ps->selected);
	mb_json_set_num(chk, "select_errors", (double)ps->errors);
	mb_json_set_num(chk, "slots_differing", differ);
	mb_json_set_num(chk, "left_queued", (double)left);
}

void rp_select_finish(struct mb_run *run)
{
	struct rp_state *st = run->priv;
	const struct mb_rp_stats *ps = &st->sel->skel->bss->mb_rp_st;
	const struct mb_counters *c = &st->done;
	uint64_t left = strays(st), runs = ps->runs - st->sel->runs0;
	uint32_t differ = slots_differ(st);

	describe(run, st, left, differ);
	if (c->ops && !c->errors && c->hits == c->ops && runs == c->ops && ps->selected == runs &&
	    !ps->errors && !differ && !left)
		return;
	mb_run_fail(run, -EIO, "%llu ops, %llu taken by the selected socket, %llu program runs, %llu selections, %llu failed (last %lld), %u sockets took other than selected, %llu left queued: each op must be one selection, taken by its socket",
		    (unsigned long long)c->ops, (unsigned long long)c->hits,
		    (unsigned long long)runs, (unsigned long long)ps->selected,
		    (unsigned long long)ps->errors, (long long)ps->last_err, differ,
		    (unsigned long long)left);
}
