// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keys.h"
#include "util/numparse.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void mb_rng_seed(struct mb_rng *rng, uint64_t seed)
{
	uint64_t x = seed;

	for (int i = 0; i < 4; i++)
		rng->s[i] = splitmix64(&x);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t mb_rng_next(struct mb_rng *rng)
{
	uint64_t *s = rng->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

double mb_rng_double(struct mb_rng *rng)
{
	return (double)(mb_rng_next(rng) >> 11) * 0x1.0p-53;
}

uint64_t mb_rng_below(struct mb_rng *rng, uint64_t n)
{
	unsigned __int128 m = (unsigned __int128)mb_rng_next(rng) * n;
	uint64_t low = (uint64_t)m;

	if (low < n) {
		uint64_t threshold = -n % n;

		while (low < threshold) {
			m = (unsigned __int128)mb_rng_next(rng) * n;
			low = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}

/*
 * Rejection-inversion for Zipf. With h(x) = x^-theta over ranks 1..n, H is an antiderivative of
 * h written through log1p/expm1 so that theta close to 1 stays accurate:
 *   H(x)    = expm1((1 - theta) ln x) / (1 - theta)
 *   H^-1(y) = exp(log1p(y (1 - theta)) / (1 - theta))
 * A uniform y between H(n + 1/2) and H(3/2) - 1 maps through H^-1 to x; k = round(x) is
 * accepted when x falls in the part of [k - 1/2, k + 1/2] whose area equals h(k).
 */
static double log1p_over_x(double x)
{
	return fabs(x) > 1e-8 ? log1p(x) / x : 1.0 - x * (0.5 - x / 3.0);
}

static double expm1_over_x(double x)
{
	return fabs(x) > 1e-8 ? expm1(x) / x : 1.0 + x * (0.5 + x / 6.0);
}

static double zipf_h(const struct mb_zipf *z, double x)
{
	return exp(-z->theta * log(x));
}

static double zipf_H(const struct mb_zipf *z, double x)
{
	double lx = log(x);

	return expm1_over_x((1.0 - z->theta) * lx) * lx;
}

static double zipf_H_inv(const struct mb_zipf *z, double y)
{
	double t = y * (1.0 - z->theta);

	if (t < -1.0)
		t = -1.0;
	return exp(log1p_over_x(t) * y);
}

int mb_zipf_init(struct mb_zipf *z, uint64_t n, double theta)
{
	if (!n || !(theta > MB_ZIPF_THETA_MIN) || !(theta <= MB_ZIPF_THETA_MAX))
		return -EINVAL;
	z->n = n;
	z->theta = theta;
	z->h_x1 = zipf_H(z, 1.5) - 1.0;
	z->h_n = zipf_H(z, (double)n + 0.5);
	z->s_val = 2.0 - zipf_H_inv(z, zipf_H(z, 2.5) - zipf_h(z, 2.0));
	return 0;
}

uint64_t mb_zipf_next(const struct mb_zipf *z, struct mb_rng *rng)
{
	for (;;) {
		double u = z->h_n + mb_rng_double(rng) * (z->h_x1 - z->h_n);
		double x = zipf_H_inv(z, u);
		double kd = floor(x + 0.5);
		uint64_t k;

		if (kd < 1)
			kd = 1;
		else if (kd > (double)z->n)
			kd = (double)z->n;
		k = (uint64_t)kd;
		if (kd - x <= z->s_val || u >= zipf_H(z, kd + 0.5) - zipf_h(z, kd))
			return k - 1;
	}
}

int mb_key_dist_parse(const char *s, struct mb_key_dist *dist, const char **why)
{
	double theta;

	*why = NULL;
	if (!strcmp(s, "seq") || !strcmp(s, "sequential")) {
		*dist = (struct mb_key_dist){ .kind = MB_DIST_SEQ };
		return 0;
	}
	if (!strcmp(s, "uniform")) {
		*dist = (struct mb_key_dist){ .kind = MB_DIST_UNIFORM };
		return 0;
	}
	if (!strncmp(s, "zipf:", 5)) {
		if (mb_parse_double(s + 5, &theta)) {
			*why = "no number after zipf:";
			return -EINVAL;
		}
		if (!(theta > MB_ZIPF_THETA_MIN && theta <= MB_ZIPF_THETA_MAX)) {
			*why = "zipf theta out of range";
			return -EINVAL;
		}
		*dist = (struct mb_key_dist){ .kind = MB_DIST_ZIPF, .theta = theta };
		return 0;
	}
	*why = "unknown distribution";
	return -EINVAL;
}

int mb_key_dist_opt_parse(const char *arg, void *field, const char **why)
{
	return mb_key_dist_parse(arg, field, why);
}

void mb_key_dist_opt_format(const void *field, char *buf, size_t len)
{
	mb_key_dist_format(field, buf, len);
}

void mb_key_dist_format(const struct mb_key_dist *dist, char *buf, size_t len)
{
	switch (dist->kind) {
	case MB_DIST_SEQ:
		snprintf(buf, len, "seq");
		break;
	case MB_DIST_UNIFORM:
		snprintf(buf, len, "uniform");
		break;
	case MB_DIST_ZIPF:
		snprintf(buf, len, "zipf:%g", dist->theta);
		break;
	}
}

int mb_keygen_init(struct mb_keygen *gen, const struct mb_key_dist *dist, uint64_t n,
		   uint64_t seed)
{
	memset(gen, 0, sizeof(*gen));
	if (!n)
		return -EINVAL;
	gen->dist = *dist;
	gen->n = n;
	mb_rng_seed(&gen->rng, seed);
	if (dist->kind == MB_DIST_ZIPF)
		return mb_zipf_init(&gen->zipf, n, dist->theta);
	return 0;
}

uint64_t mb_keygen_next(struct mb_keygen *gen)
{
	uint64_t v;

	switch (gen->dist.kind) {
	case MB_DIST_UNIFORM:
		return mb_rng_below(&gen->rng, gen->n);
	case MB_DIST_ZIPF:
		return mb_zipf_next(&gen->zipf, &gen->rng);
	case MB_DIST_SEQ:
	default:
		v = gen->cursor++;
		if (gen->cursor == gen->n)
			gen->cursor = 0;
		return v;
	}
}

int mb_keys_read_file(const char *path, uint64_t **keys, size_t *nr_keys, char *err,
		      size_t errlen)
{
	size_t n = 0, cap = 0, line_no = 0, linecap = 0;
	uint64_t *v = NULL, key;
	char *line = NULL;
	ssize_t len;
	FILE *f;
	int ret = 0;

	*keys = NULL;
	*nr_keys = 0;
	f = fopen(path, "re");
	if (!f) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return ret;
	}
	errno = 0;
	while ((len = getline(&line, &linecap, f)) >= 0) {
		line_no++;
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		if (len && line[len - 1] == '\r')
			line[--len] = '\0';
		/* Only decimal digits: no sign, hex, suffix or spaces in a trace. */
		if (!len || strspn(line, "0123456789") != (size_t)len || mb_parse_u64(line, &key)) {
			snprintf(err, errlen, "%s: line %zu: not a key (expected one unsigned decimal key per line)",
				 path, line_no);
			ret = -EINVAL;
			goto out;
		}
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 4096;
			uint64_t *nv = realloc(v, ncap * sizeof(*v));

			if (!nv) {
				snprintf(err, errlen, "%s: out of memory", path);
				ret = -ENOMEM;
				goto out;
			}
			v = nv;
			cap = ncap;
		}
		v[n++] = key;
	}
	if (ferror(f)) {
		/* getline() left the reason in errno (EISDIR for a directory, EIO, ...). */
		ret = errno ? -errno : -EIO;
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(-ret));
		goto out;
	}
	if (!n) {
		ret = -ENODATA;
		snprintf(err, errlen, "%s: has no key", path);
		goto out;
	}
	*keys = v;
	*nr_keys = n;
	v = NULL;
out:
	free(line);
	free(v);
	fclose(f);
	return ret;
}
