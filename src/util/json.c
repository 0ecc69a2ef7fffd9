// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

#define JSON_MAX_DEPTH 128

struct mb_json {
	enum mb_json_type type;
	union {
		bool b;
		struct {
			double num;
			uint64_t u;	/* with exact: the integer itself, beyond 2^53 too */
			bool exact;
		};
		char *str;
		struct {
			struct mb_json **items;
			char **keys;	/* objects only */
			size_t len, cap;
		} c;
	};
};

static struct mb_json *json_new(enum mb_json_type type)
{
	struct mb_json *v = calloc(1, sizeof(*v));

	if (v)
		v->type = type;
	return v;
}

struct mb_json *mb_json_null(void)
{
	return json_new(MB_JSON_NULL);
}

struct mb_json *mb_json_bool(bool b)
{
	struct mb_json *v = json_new(MB_JSON_BOOL);

	if (v)
		v->b = b;
	return v;
}

struct mb_json *mb_json_number(double num)
{
	struct mb_json *v = json_new(MB_JSON_NUMBER);

	if (v)
		v->num = num;
	return v;
}

struct mb_json *mb_json_uint(uint64_t u)
{
	struct mb_json *v = mb_json_number((double)u);

	if (v) {
		v->u = u;
		v->exact = true;
	}
	return v;
}

void mb_json_number_text(const struct mb_json *v, char *buf, size_t len)
{
	if (v->exact)
		snprintf(buf, len, "%llu", (unsigned long long)v->u);
	else
		mb_json_format_number(v->num, buf, len);
}

struct mb_json *mb_json_string(const char *s)
{
	struct mb_json *v = json_new(MB_JSON_STRING);

	if (!v)
		return NULL;
	v->str = strdup(s ? s : "");
	if (!v->str) {
		free(v);
		return NULL;
	}
	return v;
}

struct mb_json *mb_json_array(void)
{
	return json_new(MB_JSON_ARRAY);
}

struct mb_json *mb_json_object(void)
{
	return json_new(MB_JSON_OBJECT);
}

void mb_json_free(struct mb_json *v)
{
	if (!v)
		return;
	if (v->type == MB_JSON_STRING) {
		free(v->str);
	} else if (v->type == MB_JSON_ARRAY || v->type == MB_JSON_OBJECT) {
		for (size_t i = 0; i < v->c.len; i++) {
			mb_json_free(v->c.items[i]);
			if (v->c.keys)
				free(v->c.keys[i]);
		}
		free(v->c.items);
		free(v->c.keys);
	}
	free(v);
}

static int container_grow(struct mb_json *v)
{
	size_t cap = v->c.cap ? v->c.cap * 2 : 8;
	struct mb_json **items;
	char **keys;

	if (v->c.len < v->c.cap)
		return 0;
	items = realloc(v->c.items, cap * sizeof(*items));
	if (!items)
		return -ENOMEM;
	v->c.items = items;
	if (v->type == MB_JSON_OBJECT) {
		keys = realloc(v->c.keys, cap * sizeof(*keys));
		if (!keys)
			return -ENOMEM;
		v->c.keys = keys;
	}
	v->c.cap = cap;
	return 0;
}

int mb_json_append(struct mb_json *arr, struct mb_json *val)
{
	if (!val)
		return -ENOMEM;
	if (!arr || arr->type != MB_JSON_ARRAY || container_grow(arr)) {
		mb_json_free(val);
		return arr ? -ENOMEM : 0;
	}
	arr->c.items[arr->c.len++] = val;
	return 0;
}

static long find_key(const struct mb_json *obj, const char *key)
{
	for (size_t i = 0; i < obj->c.len; i++)
		if (!strcmp(obj->c.keys[i], key))
			return (long)i;
	return -1;
}

int mb_json_set(struct mb_json *obj, const char *key, struct mb_json *val)
{
	long i;
	char *k;

	if (!val)
		return -ENOMEM;
	if (!obj || obj->type != MB_JSON_OBJECT) {
		mb_json_free(val);
		return obj ? -EINVAL : 0;
	}
	i = find_key(obj, key);
	if (i >= 0) {
		mb_json_free(obj->c.items[i]);
		obj->c.items[i] = val;
		return 0;
	}
	k = strdup(key);
	if (!k || container_grow(obj)) {
		free(k);
		mb_json_free(val);
		return -ENOMEM;
	}
	obj->c.keys[obj->c.len] = k;
	obj->c.items[obj->c.len++] = val;
	return 0;
}

int mb_json_set_num(struct mb_json *obj, const char *key, double v)
{
	return mb_json_set(obj, key, mb_json_number(v));
}

int mb_json_set_str(struct mb_json *obj, const char *key, const char *s)
{
	return mb_json_set(obj, key, s ? mb_json_string(s) : mb_json_null());
}

int mb_json_set_bool(struct mb_json *obj, const char *key, bool b)
{
	return mb_json_set(obj, key, mb_json_bool(b));
}

struct mb_json *mb_json_child(struct mb_json *obj, const char *key)
{
	struct mb_json *c = mb_json_get(obj, key);

	if (c && c->type == MB_JSON_OBJECT)
		return c;
	if (!obj || mb_json_set(obj, key, mb_json_object()))
		return NULL;
	return mb_json_get(obj, key);
}

struct mb_json *mb_json_copy(const struct mb_json *v)
{
	struct mb_json *c;

	if (!v)
		return NULL;
	switch (v->type) {
	case MB_JSON_NULL:
		return mb_json_null();
	case MB_JSON_BOOL:
		return mb_json_bool(v->b);
	case MB_JSON_NUMBER:
		return v->exact ? mb_json_uint(v->u) : mb_json_number(v->num);
	case MB_JSON_STRING:
		return mb_json_string(v->str);
	case MB_JSON_ARRAY:
	case MB_JSON_OBJECT:
		c = json_new(v->type);
		for (size_t i = 0; c && i < v->c.len; i++) {
			struct mb_json *item = mb_json_copy(v->c.items[i]);
			int err = v->type == MB_JSON_ARRAY ? mb_json_append(c, item) :
							     mb_json_set(c, v->c.keys[i], item);

			if (err) {
				mb_json_free(c);
				return NULL;
			}
		}
		return c;
	}
	return NULL;
}

bool mb_json_is(const struct mb_json *v, enum mb_json_type type)
{
	return v && v->type == type;
}

struct mb_json *mb_json_get(const struct mb_json *obj, const char *key)
{
	long i;

	if (!obj || obj->type != MB_JSON_OBJECT)
		return NULL;
	i = find_key(obj, key);
	return i < 0 ? NULL : obj->c.items[i];
}

size_t mb_json_len(const struct mb_json *v)
{
	if (!v || (v->type != MB_JSON_ARRAY && v->type != MB_JSON_OBJECT))
		return 0;
	return v->c.len;
}

struct mb_json *mb_json_at(const struct mb_json *v, size_t i)
{
	if (i >= mb_json_len(v))
		return NULL;
	return v->c.items[i];
}

const char *mb_json_key_at(const struct mb_json *obj, size_t i)
{
	if (!obj || obj->type != MB_JSON_OBJECT || i >= obj->c.len)
		return NULL;
	return obj->c.keys[i];
}

double mb_json_num(const struct mb_json *v, double def)
{
	return v && v->type == MB_JSON_NUMBER ? v->num : def;
}

const char *mb_json_str(const struct mb_json *v, const char *def)
{
	return v && v->type == MB_JSON_STRING ? v->str : def;
}

bool mb_json_truthy(const struct mb_json *v)
{
	if (!v)
		return false;
	switch (v->type) {
	case MB_JSON_BOOL:
		return v->b;
	case MB_JSON_NUMBER:
		return v->num != 0;
	case MB_JSON_STRING:
		return v->str[0] != '\0';
	case MB_JSON_NULL:
		return false;
	default:
		return v->c.len > 0;
	}
}

/* ---- writer ---- */

void mb_json_format_number(double v, char *buf, size_t len)
{
	if (!isfinite(v)) {
		/* JSON has no NaN or infinity: a missing measurement is null. */
		snprintf(buf, len, "null");
		return;
	}
	if (v == floor(v) && fabs(v) < 9007199254740992.0) {
		snprintf(buf, len, "%.0f", v);
		return;
	}
	snprintf(buf, len, "%.15g", v);
	if (strtod(buf, NULL) != v)
		snprintf(buf, len, "%.17g", v);
}

static enum mb_json_type json_type(const struct mb_json *v)
{
	return v ? v->type : MB_JSON_NULL;
}

void mb_json_scalar_text(const struct mb_json *v, char *buf, size_t len)
{
	switch (json_type(v)) {
	case MB_JSON_NUMBER:
		mb_json_number_text(v, buf, len);
		break;
	case MB_JSON_BOOL:
		snprintf(buf, len, "%s", v->b ? "true" : "false");
		break;
	case MB_JSON_STRING:
		snprintf(buf, len, "%s", v->str);
		break;
	case MB_JSON_NULL:
		snprintf(buf, len, "null");
		break;
	default:
		snprintf(buf, len, "?");
		break;
	}
}

/*
 * The length of the well-formed UTF-8 sequence at @p (RFC 3629: no overlong forms, no
 * surrogates, nothing above U+10FFFF), or 0 where @p starts none.
 */
static int utf8_sequence(const unsigned char *p)
{
	unsigned int c = p[0], n, min, cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, min = 0x80, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, min = 0x800, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, min = 0x10000, cp = c & 0x07;
	else
		return 0;
	for (unsigned int i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;	/* also the string's end: NUL is no continuation byte */
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return (int)n;
}

/* A string as JSON: escapes where JSON needs them, U+FFFD for each byte that is not UTF-8. */
static void write_string(FILE *f, const char *s)
{
	static const char *const escapes[0x60] = {
		['"'] = "\\\"", ['\\'] = "\\\\", ['\n'] = "\\n", ['\t'] = "\\t", ['\r'] = "\\r",
	};

	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		int n;

		if (*p < 0x60 && escapes[*p]) {
			fputs(escapes[*p], f);
		} else if (*p < 0x20) {
			fprintf(f, "\\u%04x", *p);
		} else if ((n = utf8_sequence(p)) > 0) {
			fwrite(p, 1, (size_t)n, f);
			p += n - 1;
		} else {
			/*
			 * Command lines and file names need not be UTF-8; a document must be. U+FFFD
			 * as its bytes, as the parser leaves a "\\ufffd" escape: what mapbench writes
			 * reads back and writes again the same.
			 */
			fputs("\xef\xbf\xbd", f);
		}
	}
	fputc('"', f);
}

static void write_indent(FILE *f, int indent, int depth)
{
	if (indent <= 0)
		return;
	fputc('\n', f);
	for (int i = 0; i < indent * depth; i++)
		fputc(' ', f);
}

/* At most this many numbers and nothing else: an array written on one line ([1, 2, 3]). */
#define ROW_MAX	4

static bool is_row(const struct mb_json *v)
{
	if (v->type != MB_JSON_ARRAY || !v->c.len || v->c.len > ROW_MAX)
		return false;
	for (size_t i = 0; i < v->c.len; i++)
		if (v->c.items[i]->type != MB_JSON_NUMBER)
			return false;
	return true;
}

static void write_value(FILE *f, const struct mb_json *v, int indent, int depth)
{
	bool row = is_row(v);
	char num[64];

	switch (v->type) {
	case MB_JSON_NULL:
		fputs("null", f);
		break;
	case MB_JSON_BOOL:
		fputs(v->b ? "true" : "false", f);
		break;
	case MB_JSON_NUMBER:
		mb_json_number_text(v, num, sizeof(num));
		fputs(num, f);
		break;
	case MB_JSON_STRING:
		write_string(f, v->str);
		break;
	case MB_JSON_ARRAY:
	case MB_JSON_OBJECT:
		fputc(v->type == MB_JSON_ARRAY ? '[' : '{', f);
		for (size_t i = 0; i < v->c.len; i++) {
			if (i)
				fputs(indent > 0 && row ? ", " : ",", f);
			if (!row)
				write_indent(f, indent, depth + 1);
			if (v->type == MB_JSON_OBJECT) {
				write_string(f, v->c.keys[i]);
				fputs(indent > 0 ? ": " : ":", f);
			}
			write_value(f, v->c.items[i], indent, depth + 1);
		}
		if (v->c.len && !row)
			write_indent(f, indent, depth);
		fputc(v->type == MB_JSON_ARRAY ? ']' : '}', f);
		break;
	}
}

int mb_json_write(FILE *f, const struct mb_json *v, int indent)
{
	if (!v)
		fputs("null", f);
	else
		write_value(f, v, indent, 0);
	if (indent > 0)
		fputc('\n', f);
	return ferror(f) ? -EIO : 0;
}

/* ---- parser ---- */

struct parser {
	const char *s;
	size_t len, pos;
	char *err;
	size_t errlen;
	bool failed;
};

static void parse_error(struct parser *p, const char *what)
{
	size_t line = 1, col = 1;

	if (p->failed)
		return;
	p->failed = true;
	for (size_t i = 0; i < p->pos && i < p->len; i++) {
		if (p->s[i] == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	if (p->err && p->errlen)
		snprintf(p->err, p->errlen, "line %zu, column %zu: %s", line, col, what);
}

static void skip_ws(struct parser *p)
{
	while (p->pos < p->len && (p->s[p->pos] == ' ' || p->s[p->pos] == '\t' ||
				   p->s[p->pos] == '\n' || p->s[p->pos] == '\r'))
		p->pos++;
}

static int peek(struct parser *p)
{
	return p->pos < p->len ? (unsigned char)p->s[p->pos] : -1;
}

static struct mb_json *parse_value(struct parser *p, int depth);

static bool parse_literal(struct parser *p, const char *lit)
{
	size_t n = strlen(lit);

	if (p->len - p->pos < n || memcmp(p->s + p->pos, lit, n)) {
		parse_error(p, "invalid literal");
		return false;
	}
	p->pos += n;
	return true;
}

static int hex4(struct parser *p, unsigned int *out)
{
	unsigned int v = 0;

	if (p->len - p->pos < 4)
		return -1;
	for (int i = 0; i < 4; i++) {
		char c = p->s[p->pos++];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned int)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned int)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned int)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

static void put_utf8(char *buf, size_t *n, unsigned int cp)
{
	if (cp < 0x80) {
		buf[(*n)++] = (char)cp;
	} else if (cp < 0x800) {
		buf[(*n)++] = (char)(0xc0 | (cp >> 6));
		buf[(*n)++] = (char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		buf[(*n)++] = (char)(0xe0 | (cp >> 12));
		buf[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3f));
		buf[(*n)++] = (char)(0x80 | (cp & 0x3f));
	} else {
		buf[(*n)++] = (char)(0xf0 | (cp >> 18));
		buf[(*n)++] = (char)(0x80 | ((cp >> 12) & 0x3f));
		buf[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3f));
		buf[(*n)++] = (char)(0x80 | (cp & 0x3f));
	}
}

/*
 * The code point of a \u escape at p->pos (just past "\u"), a surrogate pair joined; 0 with the
 * error set if it is malformed, unpaired or NUL.
 */
static unsigned int parse_unicode_escape(struct parser *p)
{
	unsigned int cp, lo;

	if (hex4(p, &cp)) {
		parse_error(p, "bad \\u escape");
		return 0;
	}
	if (cp >= 0xd800 && cp < 0xdc00) {
		if (p->len - p->pos < 6 || p->s[p->pos] != '\\' || p->s[p->pos + 1] != 'u') {
			parse_error(p, "unpaired surrogate");
			return 0;
		}
		p->pos += 2;
		if (hex4(p, &lo) || lo < 0xdc00 || lo > 0xdfff) {
			parse_error(p, "unpaired surrogate");
			return 0;
		}
		cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
	} else if (cp >= 0xdc00 && cp < 0xe000) {
		parse_error(p, "unpaired surrogate");
		return 0;
	}
	if (cp == 0)
		parse_error(p, "NUL character in string");
	return cp;
}

/* Decodes the escape at p->pos (just past its '\') into buf at *n; false on a bad one. */
static bool parse_escape(struct parser *p, char *buf, size_t *n)
{
	static const char escapes[] = "\"\\/bfnrt", meanings[] = "\"\\/\b\f\n\r\t";
	char c = p->s[p->pos++];
	const char *esc = c ? strchr(escapes, c) : NULL;
	unsigned int cp;

	if (esc) {
		buf[(*n)++] = meanings[esc - escapes];
		return true;
	}
	if (c != 'u') {
		parse_error(p, "bad escape");
		return false;
	}
	cp = parse_unicode_escape(p);
	if (!cp)
		return false;
	put_utf8(buf, n, cp);
	return true;
}

/*
 * Moves p->pos from the opening '"' to the closing one and allocates a buffer large enough for
 * the decoded string: escapes only shrink, so the raw length bounds it. NULL with the error set
 * when the string never ends or memory runs out.
 */
static char *string_buffer(struct parser *p)
{
	size_t start = ++p->pos;
	char *buf;

	while (p->pos < p->len && p->s[p->pos] != '"') {
		if (p->s[p->pos] == '\\')
			p->pos++;
		p->pos++;
	}
	if (p->pos >= p->len) {
		parse_error(p, "unterminated string");
		return NULL;
	}
	buf = malloc(p->pos - start + 1);
	if (!buf) {
		parse_error(p, "out of memory");
		return NULL;
	}
	p->pos = start;
	return buf;
}

/* Parses a string literal at p->pos (which is at '"'); returns a malloc'ed C string. */
static char *parse_string_raw(struct parser *p)
{
	char *buf = string_buffer(p);
	size_t n = 0;

	if (!buf)
		return NULL;
	while (p->s[p->pos] != '"') {
		unsigned char c = (unsigned char)p->s[p->pos++];

		if (c < 0x20) {
			p->pos--;
			parse_error(p, "control character in string");
			goto fail;
		}
		if (c >= 0x80) {
			/* The closing quote ends a cut sequence: no read past the string. */
			int len = utf8_sequence((const unsigned char *)p->s + p->pos - 1);

			if (!len) {
				p->pos--;
				parse_error(p, "invalid UTF-8 in string");
				goto fail;
			}
			memcpy(buf + n, p->s + p->pos - 1, (size_t)len);
			n += (size_t)len;
			p->pos += (size_t)len - 1;
		} else if (c != '\\') {
			buf[n++] = (char)c;
		} else if (!parse_escape(p, buf, &n)) {
			goto fail;
		}
	}
	p->pos++;
	buf[n] = '\0';
	return buf;
fail:
	free(buf);
	return NULL;
}

/* A whole number beyond what a double holds exactly (a seed) is kept exactly. */
static struct mb_json *parsed_number(const char *text)
{
	unsigned long long u;
	char *end;

	if (strspn(text, "0123456789") == strlen(text) && strlen(text) >= 16) {
		errno = 0;
		u = strtoull(text, &end, 10);
		if (!errno && !*end && u > (1ULL << 53))
			return mb_json_uint(u);
	}
	return mb_json_number(strtod(text, NULL));
}

static struct mb_json *parse_number(struct parser *p)
{
	size_t start = p->pos;
	char tmp[128];
	int c;

	if (peek(p) == '-')
		p->pos++;
	c = peek(p);
	if (c == '0') {
		p->pos++;
	} else if (c >= '1' && c <= '9') {
		while ((c = peek(p)) >= '0' && c <= '9')
			p->pos++;
	} else {
		parse_error(p, "invalid number");
		return NULL;
	}
	if (peek(p) == '.') {
		p->pos++;
		if ((c = peek(p)) < '0' || c > '9') {
			parse_error(p, "invalid number");
			return NULL;
		}
		while ((c = peek(p)) >= '0' && c <= '9')
			p->pos++;
	}
	if (peek(p) == 'e' || peek(p) == 'E') {
		p->pos++;
		if (peek(p) == '+' || peek(p) == '-')
			p->pos++;
		if ((c = peek(p)) < '0' || c > '9') {
			parse_error(p, "invalid number");
			return NULL;
		}
		while ((c = peek(p)) >= '0' && c <= '9')
			p->pos++;
	}
	if (p->pos - start >= sizeof(tmp)) {
		parse_error(p, "number too long");
		return NULL;
	}
	memcpy(tmp, p->s + start, p->pos - start);
	tmp[p->pos - start] = '\0';
	return parsed_number(tmp);
}

static struct mb_json *parse_container(struct parser *p, int depth, bool is_object)
{
	struct mb_json *v = is_object ? mb_json_object() : mb_json_array();
	char close = is_object ? '}' : ']';

	if (!v) {
		parse_error(p, "out of memory");
		return NULL;
	}
	p->pos++;
	skip_ws(p);
	if (peek(p) == close) {
		p->pos++;
		return v;
	}
	for (;;) {
		struct mb_json *item;
		char *key = NULL;

		skip_ws(p);
		if (is_object) {
			if (peek(p) != '"') {
				parse_error(p, "expected a string key");
				goto fail;
			}
			key = parse_string_raw(p);
			if (!key)
				goto fail;
			skip_ws(p);
			if (peek(p) != ':') {
				free(key);
				parse_error(p, "expected ':'");
				goto fail;
			}
			p->pos++;
		}
		item = parse_value(p, depth + 1);
		if (!item) {
			free(key);
			goto fail;
		}
		if (is_object) {
			if (mb_json_get(v, key)) {
				free(key);
				mb_json_free(item);
				parse_error(p, "duplicate key");
				goto fail;
			}
			if (mb_json_set(v, key, item)) {
				free(key);
				parse_error(p, "out of memory");
				goto fail;
			}
			free(key);
		} else if (mb_json_append(v, item)) {
			parse_error(p, "out of memory");
			goto fail;
		}
		skip_ws(p);
		if (peek(p) == ',') {
			p->pos++;
			continue;
		}
		if (peek(p) == close) {
			p->pos++;
			return v;
		}
		parse_error(p, is_object ? "expected ',' or '}'" : "expected ',' or ']'");
		goto fail;
	}
fail:
	mb_json_free(v);
	return NULL;
}

static struct mb_json *parse_value(struct parser *p, int depth)
{
	struct mb_json *v;
	char *s;
	int c;

	if (depth > JSON_MAX_DEPTH) {
		parse_error(p, "nested too deeply");
		return NULL;
	}
	skip_ws(p);
	c = peek(p);
	switch (c) {
	case '{':
		return parse_container(p, depth, true);
	case '[':
		return parse_container(p, depth, false);
	case '"':
		s = parse_string_raw(p);
		if (!s)
			return NULL;
		v = json_new(MB_JSON_STRING);
		if (!v) {
			free(s);
			parse_error(p, "out of memory");
			return NULL;
		}
		v->str = s;
		return v;
	case 't':
		return parse_literal(p, "true") ? mb_json_bool(true) : NULL;
	case 'f':
		return parse_literal(p, "false") ? mb_json_bool(false) : NULL;
	case 'n':
		return parse_literal(p, "null") ? mb_json_null() : NULL;
	case -1:
		parse_error(p, "unexpected end of input");
		return NULL;
	default:
		if (c == '-' || (c >= '0' && c <= '9'))
			return parse_number(p);
		parse_error(p, "unexpected character");
		return NULL;
	}
}

struct mb_json *mb_json_parse(const char *text, size_t len, char *err, size_t errlen)
{
	struct parser p = { .s = text, .len = len, .err = err, .errlen = errlen };
	struct mb_json *v;

	if (err && errlen)
		err[0] = '\0';
	v = parse_value(&p, 0);
	if (!v)
		return NULL;
	skip_ws(&p);
	if (p.pos != p.len) {
		parse_error(&p, "trailing characters after the document");
		mb_json_free(v);
		return NULL;
	}
	return v;
}
