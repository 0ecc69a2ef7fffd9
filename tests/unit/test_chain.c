// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The chain of sinks a session builds from what a run wants (plan/chain.c). */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "plan/chain.h"
#include "util/json.h"
#include "util/log.h"

/* A document kind that counts what the chain asks of it. */
struct fake_doc {
	int made, written;
	struct mb_json *doc;		/* the last one made */
	const struct mb_json *got;	/* what the writer was handed */
	int write_ret;
};

static struct mb_json *fake_make(void *priv, struct mb_run *runs, int ran)
{
	struct fake_doc *f = priv;

	(void)runs;
	(void)ran;
	f->made++;
	f->doc = mb_json_object();
	mb_json_set_num(f->doc, "x", 1);
	return f->doc;
}

static int fake_write(void *priv, struct mb_json *doc, struct mb_run *runs, int ran)
{
	struct fake_doc *f = priv;

	(void)runs;
	(void)ran;
	f->written++;
	f->got = doc;
	return f->write_ret;
}

/* A sink ahead of the document writer that notes what the end event carried. */
static void note_end(struct mb_sink *sink, struct mb_sink_end *e)
{
	*(const struct mb_json **)sink->priv = e->doc;
}

static void test_chain_order(void **state)
{
	struct mb_env env = { 0 };
	struct mb_sink progress = { 0 };
	struct mb_chain_want want = { .live_text = true, .progress = &progress,
				      .table = MB_CHAIN_TABLE_SEVERAL, .baseline = true };
	struct mb_chain c;
	struct mb_sink *s;

	(void)state;
	mb_chain_build(&c, &want, &env, NULL);
	s = c.head;
	assert_ptr_equal(s, &c.live);
	assert_ptr_equal(s = s->next, &progress);
	assert_ptr_equal(s = s->next, &c.table);
	assert_ptr_equal(s = s->next, &c.document);
	assert_ptr_equal(s = s->next, &c.baseline.sink);
	assert_null(s->next);
}

/* What a run does not want is not in its chain; the document writer always is. */
static void test_chain_parts_left_out(void **state)
{
	struct mb_env env = { 0 };
	struct mb_sink progress = { .next = &progress };	/* a stale link is cut */
	struct mb_chain_want want = { .progress = &progress };
	struct mb_chain c;

	(void)state;
	mb_chain_build(&c, &want, &env, NULL);
	assert_ptr_equal(c.head, &progress);
	assert_ptr_equal(progress.next, &c.document);
	assert_null(c.document.next);
	want = (struct mb_chain_want){ 0 };
	mb_chain_build(&c, &want, &env, NULL);
	assert_ptr_equal(c.head, &c.document);
	assert_null(c.document.next);
}

/* The document is made once, before the end event: a sink ahead of the writer has it too. */
static void test_chain_end_document(void **state)
{
	struct mb_env env = { 0 };
	struct fake_doc f = { 0 };
	struct mb_chain_doc doc = { .make = fake_make, .write = fake_write, .priv = &f };
	const struct mb_json *seen = NULL;
	struct mb_sink progress = { .end = note_end, .priv = &seen };
	struct mb_chain_want want = { .progress = &progress, .doc = &doc, .baseline = true };
	struct mb_chain c;

	(void)state;
	mb_chain_build(&c, &want, &env, NULL);
	assert_int_equal(mb_chain_end(&c, NULL, 0, 0, MB_EXIT_OK), MB_EXIT_OK);
	assert_int_equal(f.made, 1);
	assert_int_equal(f.written, 1);
	assert_ptr_equal(f.got, f.doc);
	assert_ptr_equal(seen, f.doc);
	/* A document that cannot be written fails the run; an earlier failure stays. */
	f.write_ret = -EIO;
	assert_int_equal(mb_chain_end(&c, NULL, 0, 0, MB_EXIT_OK), MB_EXIT_FAIL);
	assert_int_equal(mb_chain_end(&c, NULL, 0, 0, MB_EXIT_SKIP), MB_EXIT_SKIP);
}

static struct mb_json *load(const char *path)
{
	char text[4096], err[256];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(text, 1, sizeof(text), f);
	fclose(f);
	return mb_json_parse(text, n, err, sizeof(err));
}

/* --save-baseline saves the document the chain made, whatever stands between them. */
static void test_chain_baseline_gets_document(void **state)
{
	char dir[] = "/tmp/mb-chain-test.XXXXXX", path[512];
	struct mb_env env = { .save_baseline = "b" };
	struct fake_doc f = { 0 };
	struct mb_chain_doc doc = { .make = fake_make, .write = fake_write, .priv = &f };
	struct mb_chain_want want = { .doc = &doc, .baseline = true };
	struct mb_chain c;
	struct mb_json *saved;

	(void)state;
	assert_non_null(mkdtemp(dir));
	setenv("MAPBENCH_BASELINE_DIR", dir, 1);
	mb_log_init(true, false, stdout);
	mb_chain_build(&c, &want, &env, NULL);
	assert_int_equal(mb_chain_end(&c, NULL, 0, 0, MB_EXIT_OK), MB_EXIT_OK);
	snprintf(path, sizeof(path), "%s/b.json", dir);
	saved = load(path);
	assert_non_null(saved);
	assert_int_equal((int)mb_json_num(mb_json_get(saved, "x"), 0), 1);
	mb_json_free(saved);
	/* Not saved when a run failed, nor by a chain that does not want the baseline. */
	unlink(path);
	assert_int_equal(mb_chain_end(&c, NULL, 0, 0, MB_EXIT_FAIL), MB_EXIT_FAIL);
	assert_int_equal(access(path, F_OK), -1);
	want.baseline = false;
	mb_chain_build(&c, &want, &env, NULL);
	assert_int_equal(mb_chain_end(&c, NULL, 0, 0, MB_EXIT_OK), MB_EXIT_OK);
	assert_int_equal(access(path, F_OK), -1);
	rmdir(dir);
	unsetenv("MAPBENCH_BASELINE_DIR");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chain_order),
		cmocka_unit_test(test_chain_parts_left_out),
		cmocka_unit_test(test_chain_end_document),
		cmocka_unit_test(test_chain_baseline_gets_document),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
