// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Per-sample rates of producers whose calls are long: derived from the time the counted calls
 * covered, they take no steps of one call's ops, whatever the call length and the sampler's
 * phase. Producers are simulated: calls of a fixed length, stamped at their end.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "core/summary.h"

#define T0		1000000000ULL	/* start of sampling (CLOCK_MONOTONIC ns) */
#define MAX_PROD	3
#define GRANULARITY	1e-3		/* the most a rate may be off: 0.1 % */

struct sim {
	uint64_t period_ns;	/* one call and the bookkeeping until its stamp */
	uint64_t phase_ns;	/* the first stamp, <= T0: the producer runs before sampling */
	uint64_t ops;		/* per call */
};

/* Producer @p's published counters at time @t: the calls stamped by then and the last stamp. */
static void sim_read(const struct sim *p, uint64_t t, struct mb_counters *c)
{
	uint64_t n = (t - p->phase_ns) / p->period_ns + 1;

	memset(c, 0, sizeof(*c));
	c->ops = n * p->ops;
	c->end_ns = p->phase_ns + (n - 1) * p->period_ns;
}

/* The sampler's jitter: within +-1 % of the interval, from a fixed LCG. */
static int64_t jitter(uint64_t *rng, uint64_t interval_ns)
{
	*rng = *rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return (int64_t)((*rng >> 33) % (interval_ns / 50 + 1)) - (int64_t)(interval_ns / 100);
}

/*
 * Sample @np simulated producers @n times every @interval_ns, as the runner does; every rate
 * must be the true one within GRANULARITY. Returns the worst error a rate over the elapsed
 * time would have had, to show the case is one that counts whole calls.
 */
static double check_rates(const struct sim *sim, int np, uint64_t interval_ns, int n)
{
	struct mb_counters last[MAX_PROD], now, prod[MAX_PROD];
	struct mb_sample s = { .prod = prod };
	uint64_t rng = 42, prev = T0;
	double truth = 0, worst_elapsed = 0;

	for (int p = 0; p < np; p++) {
		sim_read(&sim[p], T0, &last[p]);
		truth += (double)sim[p].ops * 1e9 / (double)sim[p].period_ns;
	}
	for (int k = 1; k <= n; k++) {
		uint64_t t = T0 + (uint64_t)k * interval_ns + (uint64_t)jitter(&rng, interval_ns);
		double rate;

		memset(&s.total, 0, sizeof(s.total));
		for (int p = 0; p < np; p++) {
			sim_read(&sim[p], t, &now);
			prod[p].ops = now.ops - last[p].ops;
			prod[p].end_ns = now.end_ns - last[p].end_ns;
			s.total.ops += prod[p].ops;
			last[p] = now;
		}
		s.elapsed_ns = t - prev;
		prev = t;
		s.covered_ns = mb_sample_covered_ns(&s, np);
		rate = mb_sample_rate(&s, s.total.ops);
		if (fabs(rate / truth - 1) > GRANULARITY)
			fail_msg("sample %d: %.6g ops/s, true rate %.6g (%d producers, calls of %llu ns, samples of %llu ns)",
				 k, rate, truth, np, (unsigned long long)sim[0].period_ns,
				 (unsigned long long)interval_ns);
		for (int p = 0; p < np; p++) {
			double want = (double)sim[p].ops * 1e9 / (double)sim[p].period_ns;

			assert_true(fabs(mb_sample_prod_rate(&s, p, prod[p].ops) / want - 1) <=
				    GRANULARITY);
		}
		assert_true(fabs(mb_sample_wall_latency(&s, np) * truth / 1e9 / np - 1) <=
			    GRANULARITY);
		rate = (double)s.total.ops * 1e9 / (double)s.elapsed_ns;
		worst_elapsed = fmax(worst_elapsed, fabs(rate / truth - 1));
	}
	return worst_elapsed;
}

/* bpf-hashmap-lookup's defaults: 1,000,000 lookups a call, ~50 ms a call, 1 s samples. */
static void test_kernel_bench_calls(void **state)
{
	/* Calls that end near the sample's ends: the sampler's jitter decides 19, 20 or 21. */
	struct sim sim = { .period_ns = 50000000, .phase_ns = T0 - 50000000 + 1000,
			   .ops = 1000000 };

	(void)state;
	/* Over the elapsed time the rates step by a call: 5 %. */
	assert_true(check_rates(&sim, 1, 1000000000, 200) > 0.02);
	/* Away from them the count looks steady (the CV 0.00 %), but counts whole calls. */
	sim.phase_ns = T0 - 12345678;
	check_rates(&sim, 1, 1000000000, 200);
	sim.period_ns = 47123457;
	assert_true(check_rates(&sim, 1, 1000000000, 200) > 0.02);
}

/* Calls from 0.1 % of a sample to nearly a whole one, at several phases. */
static void test_call_lengths(void **state)
{
	static const uint64_t periods[] = { 1000003, 9999991, 123456789, 333333331, 900000011 };

	(void)state;
	for (size_t i = 0; i < sizeof(periods) / sizeof(*periods); i++) {
		for (uint64_t ph = 0; ph < 4; ph++) {
			struct sim sim = { .period_ns = periods[i],
					   .phase_ns = T0 - ph * periods[i] / 4, .ops = 777 };

			check_rates(&sim, 1, 1000000000, 50);
		}
	}
}

/* Producers with their own call lengths: the sample's rate is the sum of theirs. */
static void test_producers(void **state)
{
	const struct sim sim[MAX_PROD] = {
		{ .period_ns = 50000000, .phase_ns = T0 - 1, .ops = 1000000 },
		{ .period_ns = 31000007, .phase_ns = T0 - 20000000, .ops = 1000000 },
		{ .period_ns = 7000001, .phase_ns = T0 - 3000000, .ops = 100000 },
	};

	(void)state;
	assert_true(check_rates(sim, 2, 1000000000, 100) > 0.02);
	assert_true(check_rates(sim, 3, 100000000, 100) > 0.02);
}

/* Counts read at the sample's end (no stamps): the sample's own length, as before. */
static void test_unstamped(void **state)
{
	struct mb_counters prod[2] = { { .ops = 1000 }, { .ops = 3000 } };
	struct mb_sample s = { .elapsed_ns = 2000000000, .prod = prod, .total = { .ops = 4000 } };

	(void)state;
	assert_int_equal(mb_sample_covered_ns(&s, 2), 2000000000);
	s.covered_ns = mb_sample_covered_ns(&s, 2);
	assert_true(fabs(mb_sample_rate(&s, 4000) - 2000) < 1e-9);
	assert_true(fabs(mb_sample_prod_rate(&s, 1, 3000) - 1500) < 1e-9);
	/* Nothing counted: no rate to match, the sample's length. */
	prod[0].ops = prod[1].ops = 0;
	prod[0].end_ns = 5;
	assert_int_equal(mb_sample_covered_ns(&s, 2), 2000000000);
}

/* A producer whose call outlasted the sample counts nothing there; the others count. */
static void test_no_call_completed(void **state)
{
	struct mb_counters prod[2] = {
		{ .ops = 0, .end_ns = 0 },
		{ .ops = 2000, .end_ns = 1000000000 },
	};
	struct mb_sample s = { .elapsed_ns = 1000000000, .prod = prod, .total = { .ops = 2000 } };

	(void)state;
	s.covered_ns = mb_sample_covered_ns(&s, 2);
	assert_true(fabs(mb_sample_rate(&s, 2000) - 2000) < 1e-6);
	assert_true(fabs(mb_sample_prod_rate(&s, 0, 0)) < 1e-9);
	assert_true(fabs(mb_sample_prod_rate(&s, 1, 2000) - 2000) < 1e-6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernel_bench_calls),
		cmocka_unit_test(test_call_lengths),
		cmocka_unit_test(test_producers),
		cmocka_unit_test(test_unstamped),
		cmocka_unit_test(test_no_call_completed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
