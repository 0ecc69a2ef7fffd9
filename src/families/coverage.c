// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "coverage.h"
#include "util/json.h"

static bool lists(const struct mb_bench *b, const char *type)
{
	for (int i = 0; b->map_types && b->map_types[i]; i++)
		if (!strcmp(b->map_types[i], type))
			return true;
	return false;
}

/* The benches of @benches that list @r's type, op benches and footprint benches apart. */
static int cover_one(struct mb_coverage_row *r, const struct mb_bench *const *benches, int nb)
{
	const struct mb_map_probe *p = r->probe;

	r->benches = calloc((size_t)nb + 1, sizeof(*r->benches));
	r->memory = calloc((size_t)nb + 1, sizeof(*r->memory));
	if (!r->benches || !r->memory)
		return -ENOMEM;
	for (int i = 0; i < nb; i++) {
		if (!lists(benches[i], p->name))
			continue;
		if (!(benches[i]->flags & MB_BENCH_FOOTPRINT))
			r->benches[r->nr_benches++] = benches[i];
		else if (!p->err)
			r->memory[r->nr_memory++] = benches[i];
	}
	if (!r->nr_benches && p->recipe)
		r->why_not_covered = p->recipe->no_bench;
	return 0;
}

int mb_coverage_rows(const struct mb_map_probe *p, int n, const struct mb_bench *const *benches,
		     struct mb_coverage_row **out)
{
	struct mb_coverage_row *rows = calloc((size_t)n + 1, sizeof(*rows));
	int nb = 0;

	*out = NULL;
	if (!rows)
		return -ENOMEM;
	while (benches[nb])
		nb++;
	for (int i = 0; i < n; i++) {
		rows[i].probe = &p[i];
		if (cover_one(&rows[i], benches, nb)) {
			mb_coverage_free(rows, n);
			return -ENOMEM;
		}
	}
	*out = rows;
	return 0;
}

void mb_coverage_free(struct mb_coverage_row *rows, int n)
{
	for (int i = 0; rows && i < n; i++) {
		free(rows[i].benches);
		free(rows[i].memory);
	}
	free(rows);
}

/* "a, b, c" of @b (or "-"). */
static void names(const struct mb_bench **b, int n, char *buf, size_t len)
{
	size_t used = 0;

	snprintf(buf, len, "-");
	for (int i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", b[i]->name);
}

/* The text's last column: why not created, why not covered, or both; "" for neither. */
static void why_text(const struct mb_coverage_row *r, char *buf, size_t len)
{
	const struct mb_map_probe *p = r->probe;
	size_t used = 0;

	buf[0] = '\0';
	if (p->err)
		used = (size_t)snprintf(buf, len, "%s%s", p->value < 0 ? "" : "not created: ",
					p->why);
	if (!r->nr_benches && used < len)
		snprintf(buf + used, len - used, "%s%s", used ? "; " : "",
			 r->why_not_covered ? r->why_not_covered : "not covered, and no reason given");
}

void mb_coverage_print(FILE *f, const struct mb_coverage_row *rows, int n)
{
	int on = 0, made = 0, covered = 0, memory = 0;
	char b[1024], m[128], why[768], val[16];

	fprintf(f, "%-22s %4s %-7s %-9s %s\n", "map type", "enum", "created", "memory",
		"benches | why not");
	for (int i = 0; i < n; i++) {
		const struct mb_coverage_row *r = &rows[i];
		const struct mb_map_probe *p = r->probe;

		on += p->value >= 0;
		made += !p->err;
		covered += r->nr_benches > 0;
		memory += r->nr_memory > 0;
		names(r->benches, r->nr_benches, b, sizeof(b));
		names(r->memory, r->nr_memory, m, sizeof(m));
		why_text(r, why, sizeof(why));
		snprintf(val, sizeof(val), "%d", p->value);
		fprintf(f, "%-22s %4s %-7s %-9s %s%s%s\n", p->name, p->value < 0 ? "-" : val,
			p->err ? "no" : "yes", m, r->nr_benches ? b : "", r->nr_benches && *why ? " | " : "",
			why);
	}
	fprintf(f, "%d map types (%d on this kernel): %d created here, %d covered by a bench, %d with a memory row\n",
		n, on, made, covered, memory);
}

static struct mb_json *name_array(const struct mb_bench **b, int n)
{
	struct mb_json *a = mb_json_array();

	for (int i = 0; a && i < n; i++)
		mb_json_append(a, mb_json_string(b[i]->name));
	return a;
}

static struct mb_json *str_or_null(const char *s)
{
	return s ? mb_json_string(s) : mb_json_null();
}

static struct mb_json *recipe_json(const struct mb_map_recipe *r)
{
	struct mb_json *o;

	if (!r)
		return mb_json_null();
	o = mb_json_object();
	mb_json_set_num(o, "key_size", r->key_size);
	mb_json_set_num(o, "value_size", r->value_size);
	mb_json_set_num(o, "max_entries", r->max_entries);
	mb_json_set_num(o, "map_flags", r->flags);
	mb_json_set_bool(o, "btf", r->needs & (MB_RECIPE_BTF | MB_RECIPE_VMLINUX_VALUE));
	mb_json_set_bool(o, "inner_map", r->needs & MB_RECIPE_INNER);
	mb_json_set(o, "kernel_value_type", str_or_null(r->btf_types));
	mb_json_set(o, "needs", str_or_null(r->needs_what));
	mb_json_set(o, "since", str_or_null(r->since));
	return o;
}

static struct mb_json *row_json(const struct mb_coverage_row *r)
{
	const struct mb_map_probe *p = r->probe;
	struct mb_json *o = mb_json_object();

	mb_json_set_str(o, "name", p->name);
	mb_json_set(o, "value", p->value < 0 ? mb_json_null() : mb_json_number(p->value));
	mb_json_set_bool(o, "on_kernel", p->value >= 0);
	mb_json_set(o, "recipe", recipe_json(p->recipe));
	mb_json_set_bool(o, "created", !p->err);
	/* The errno of a creation tried: none for a type not on the kernel or without recipe. */
	mb_json_set(o, "errno", p->err && p->value >= 0 && p->recipe ? mb_json_number(-p->err) :
		    mb_json_null());
	mb_json_set(o, "why_not_created", p->err ? mb_json_string(p->why) : mb_json_null());
	mb_json_set(o, "benches", name_array(r->benches, r->nr_benches));
	mb_json_set(o, "memory", name_array(r->memory, r->nr_memory));
	mb_json_set_bool(o, "covered", r->nr_benches > 0);
	mb_json_set(o, "why_not_covered",
		    r->nr_benches ? mb_json_null() : str_or_null(r->why_not_covered));
	return o;
}

struct mb_json *mb_coverage_json(const struct mb_coverage_row *rows, int n, struct mb_json *ctx)
{
	struct mb_json *doc = mb_json_object(), *types = mb_json_array(), *counts;
	int on = 0, made = 0, covered = 0, memory = 0;

	mb_json_set_num(doc, "schema_version", 1);
	mb_json_set(doc, "context", ctx ? ctx : mb_json_null());
	for (int i = 0; i < n; i++) {
		on += rows[i].probe->value >= 0;
		made += !rows[i].probe->err;
		covered += rows[i].nr_benches > 0;
		memory += rows[i].nr_memory > 0;
		mb_json_append(types, row_json(&rows[i]));
	}
	mb_json_set(doc, "map_types", types);
	counts = mb_json_child(doc, "counts");
	mb_json_set_num(counts, "types", n);
	mb_json_set_num(counts, "on_kernel", on);
	mb_json_set_num(counts, "created", made);
	mb_json_set_num(counts, "covered", covered);
	mb_json_set_num(counts, "memory", memory);
	return doc;
}
