/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Key streams: a seeded PRNG, sequential / uniform / zipf(theta) index generators and key-trace
 * files. The same seed gives the same stream on every machine with the same C library.
 */
#ifndef MB_KEYS_H
#define MB_KEYS_H

#include <stddef.h>
#include <stdint.h>

/* xoshiro256** seeded through splitmix64. */
struct mb_rng {
	uint64_t s[4];
};

void mb_rng_seed(struct mb_rng *rng, uint64_t seed);
uint64_t mb_rng_next(struct mb_rng *rng);
/* Uniform double in [0, 1) with 53 random bits. */
double mb_rng_double(struct mb_rng *rng);
/* Uniform integer in [0, n), without modulo bias (Lemire's method). n must be > 0. */
uint64_t mb_rng_below(struct mb_rng *rng, uint64_t n);

#define MB_ZIPF_THETA_MIN 0.0	/* exclusive */
#define MB_ZIPF_THETA_MAX 10.0	/* inclusive */

/*
 * Zipf over ranks 0..n-1 with P(rank k) proportional to 1/(k+1)^theta, drawn by
 * rejection-inversion (Hoermann and Derflinger, 1996): O(1) time and memory per draw, exact
 * for any theta > 0.
 */
struct mb_zipf {
	uint64_t n;
	double theta;
	double h_x1, h_n, s_val;
};

int mb_zipf_init(struct mb_zipf *z, uint64_t n, double theta);
uint64_t mb_zipf_next(const struct mb_zipf *z, struct mb_rng *rng);

enum mb_dist_kind {
	MB_DIST_SEQ,
	MB_DIST_UNIFORM,
	MB_DIST_ZIPF,
};

struct mb_key_dist {
	enum mb_dist_kind kind;
	double theta;	/* zipf only */
};

/* Parse "seq", "uniform" or "zipf:THETA". On error returns -EINVAL and sets @why. */
int mb_key_dist_parse(const char *s, struct mb_key_dist *dist, const char **why);
/* Canonical text of @dist ("zipf:0.99"). */
void mb_key_dist_format(const struct mb_key_dist *dist, char *buf, size_t len);
/* The same as MB_OPT_CUSTOM callbacks for a struct mb_key_dist field (--key_dist, --dist). */
int mb_key_dist_opt_parse(const char *arg, void *field, const char **why);
void mb_key_dist_opt_format(const void *field, char *buf, size_t len);

/* An index stream over [0, n) following a distribution. */
struct mb_keygen {
	struct mb_key_dist dist;
	uint64_t n;
	uint64_t cursor;	/* seq */
	struct mb_rng rng;
	struct mb_zipf zipf;
};

int mb_keygen_init(struct mb_keygen *gen, const struct mb_key_dist *dist, uint64_t n,
		   uint64_t seed);
uint64_t mb_keygen_next(struct mb_keygen *gen);

/*
 * Read a key trace: one unsigned decimal key per line ("\n" or "\r\n"; a missing final newline
 * is fine). Fails with -EINVAL on a line that is not a key, -ENODATA on an empty file, -errno
 * when the file cannot be read; @err says which line and why.
 */
int mb_keys_read_file(const char *path, uint64_t **keys, size_t *nr_keys, char *err,
		      size_t errlen);

#endif
