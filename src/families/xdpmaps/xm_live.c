// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * xdp-redirect-map --live: frames really redirected. BPF_PROG_TEST_RUN with
 * BPF_F_TEST_XDP_LIVE_FRAMES runs the program once per frame, in batches, and does what it
 * answers: XDP_REDIRECT through a devmap sends the frame out of the veth the entry names, to
 * its peer, whose XDP program counts it (xm.bpf.c). Each call's frames are sized to
 * --call_us of the kernel's own time per frame (the call's duration), which goes into the
 * slot beside the program's counts; after the run the frames that arrived are read back.
 */
#include <errno.h>
#include <string.h>
#include <time.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>

#include "xm.h"
#include "core/env.h"
#include "core/run.h"
#include "drivers/kloop.h"
#include "util/json.h"
#include "util/log.h"
#include "xm.skel.h"

#define XM_LIVE_FIRST	256
#define XM_LIVE_MAX	(1u << 20)	/* frames per call */
#define XM_LIVE_BYTES	64		/* a frame of zeros: test_run wants an Ethernet header */
#define XM_SETTLE_NS	(1000ull * 1000 * 1000)

/* One call of @frames frames; their kernel time into *@ns. 0 or a negative errno. */
static int xm_live_call(struct xm_state *st, uint32_t frames, uint64_t *ns)
{
	char pkt[XM_LIVE_BYTES] = { 0 };
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = pkt, .data_size_in = sizeof(pkt),
		    .repeat = frames, .flags = BPF_F_TEST_XDP_LIVE_FRAMES);

	if (bpf_prog_test_run_opts(st->prog_fd, &o))
		return -errno;
	/* The duration is the mean per frame. */
	*ns = (uint64_t)o.duration * frames;
	return 0;
}

int xm_live_producer(struct mb_run *run, struct mb_producer *p)
{
	struct xm_state *st = run->priv;
	struct mb_slot *slot = &st->skel->bss->mb_slots[0];
	uint64_t target = (uint64_t)run->env->call_us * 1000, frames = XM_LIVE_FIRST;
	uint64_t next_ref = 0, ns = 0;
	struct mb_counters c = { 0 };
	int err;

	run->ops_per_iter = 1;
	mb_producer_publish_stamped(p, &c);
	while (!mb_run_should_stop(run)) {
		err = xm_live_call(st, (uint32_t)frames, &ns);
		if (err) {
			mb_err("%s: BPF_PROG_TEST_RUN with live frames failed: %s",
			       run->bench->name, strerror(-err));
			return err;
		}
		/* Only this thread writes these two: the program counts ops and answers. */
		slot->kernel_ns += ns;
		slot->calls++;
		mb_kloop_slot_counters(slot, 1, &c);
		frames = mb_kloop_next_iters(frames, ns, target, XM_LIVE_MAX);
		err = mb_kloop_reference(run, p, &c, &next_ref);
		if (err < 0)
			return err;
		mb_producer_publish_stamped(p, &c);
	}
	return 0;
}

/*
 * The frames the peers counted, once the count has reached what was sent or has not moved for
 * a tenth of a second (a frame the veth could not queue never arrives), at most a second.
 */
uint64_t xm_live_arrived(const struct xm_state *st)
{
	volatile __u64 *rx = &st->skel->bss->mb_xm_rx_frames;
	uint64_t sent = st->skel->bss->mb_slots[0].hits, last = *rx, t0 = mb_now_ns(), moved = t0;
	struct timespec tick = { .tv_nsec = 1000 * 1000 };

	while (*rx < sent && mb_now_ns() - t0 < XM_SETTLE_NS &&
	       mb_now_ns() - moved < XM_SETTLE_NS / 10) {
		nanosleep(&tick, NULL);
		if (*rx != last) {
			last = *rx;
			moved = mb_now_ns();
		}
	}
	return *rx;
}
