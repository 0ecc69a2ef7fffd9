// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * structops family: the producer loop both benches run (so.h), each with its own op: a
 * creation and close of a map (so_create.c), a registration and unregistration (so_reg.c).
 */
#include "so.h"
#include "core/run.h"

int so_produce(struct mb_run *run, struct mb_producer *p, int chunk, so_op_fn op)
{
	struct so_state *st = run->priv;
	struct mb_counters c = { 0 };
	int err = 0;

	mb_producer_publish_stamped(p, &c);
	while (!err && !mb_run_should_stop(run)) {
		for (int i = 0; i < chunk && !err; i++) {
			err = op(st, p, &c);
			c.ops++;
			c.calls += 2;
			if (err)
				c.errors++;
			else
				c.hits++;
		}
		mb_producer_publish_stamped(p, &c);
	}
	st->done = c;
	return err;
}
