// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The assumptions language (man/abiwatch-assumptions.5): a lexer that knows
 * whether it expects an operand (where '*' starts a key pattern) or an
 * operator (where it multiplies), a precedence-climbing parser that checks
 * types as it builds, so that every mistake is reported at its column,
 * and a three-valued evaluator (Kleene's logic: unknown and held is
 * unknown, unknown or held is held).
 */
#include "assume.h"
#include "core/env.h"
#include "core/registry.h"
#include "lib/textfile.h"
#include "lib/util.h"

#include <ctype.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef __int128 i128;
#define I128_MAX ((i128)(((unsigned __int128)1 << 127) - 1))

/* Deep enough for any rule a person writes, shallow enough that the
 * recursive parser cannot exhaust the stack on hostile input. */
#define MAX_DEPTH 64
/* Operators at one level: a chain of them is a tree as deep as it is long,
 * which evaluation walks recursively; with MAX_DEPTH this bounds a rule's
 * tree at 64 * 64 levels, well within any stack. */
#define MAX_CHAIN 64

/* ---- the tree ---- */

enum node_kind {
	N_INT, N_TEXT, N_KEY, N_NEG, N_ADD, N_SUB, N_MUL,
	N_CMP, N_IN, N_IS, N_NOT, N_AND, N_OR,
};

/* TY_VALUE: an observation, a number or text only once it is read. */
enum type { TY_BOOL, TY_NUM, TY_TEXT, TY_VALUE };

enum cmp { C_EQ, C_NE, C_LT, C_LE, C_GT, C_GE };
static const char *const cmp_text[] = { "==", "!=", "<", "<=", ">", ">=" };


struct aw_assume_node {
	enum node_kind kind;
	enum type type;
	size_t col;               /* 0-based byte offset in its line */
	i128 num;                 /* N_INT */
	const char *text;         /* N_TEXT, N_KEY */
	enum cmp cmp;             /* N_CMP */
	bool negated;             /* N_IN: "not in"; N_IS: "is not" */
	enum aw_status state;     /* N_IS */
	struct aw_assume_node *a, *b;
	struct aw_assume_node **set; /* N_IN */
	size_t nset;
};
typedef struct aw_assume_node node;

const char *aw_verdict_name(enum aw_verdict v)
{
	static const char *const names[] = { "held", "broken", "unknown" };
	return names[v];
}

/* ---- lexing ---- */

enum tok {
	T_END, T_BAD, T_NUM, T_STR, T_WORD, T_KEY,
	T_EQ, T_NE, T_LT, T_LE, T_GT, T_GE, /* in enum cmp's order */
	T_PLUS, T_MINUS, T_STAR, T_LPAREN, T_RPAREN, T_LBRACE, T_RBRACE, T_COMMA, T_COLON,
};

struct token {
	enum tok kind;
	size_t start, end;
	i128 num;
	char *text; /* T_STR unescaped; T_WORD, T_KEY as written */
};

struct parser {
	const char *file;
	unsigned lineno;
	const char *line;
	size_t len;
	size_t pos;       /* where lexing goes on */
	struct token tok; /* the lookahead, when have */
	bool have, operand;
	int depth;
	char *err;
	void **blocks;    /* what the rule being parsed owns */
	size_t nblocks, cap_blocks;
};

/* Grow an array geometrically, so that a huge line or file costs linear
 * time and memory. */
static void *grow(void *array, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return array;
	*cap = need > 2 * *cap ? need : 2 * *cap;
	return xrealloc(array, *cap * size);
}

static void *grab(struct parser *p, size_t n)
{
	void *b = xcalloc(1, n);
	p->blocks = grow(p->blocks, &p->cap_blocks, p->nblocks + 1, sizeof(*p->blocks));
	p->blocks[p->nblocks++] = b;
	return b;
}

static char *grab_str(struct parser *p, const char *s, size_t n)
{
	char *d = grab(p, n + 1);
	memcpy(d, s, n);
	return d;
}

/* Record the error (the first one only) and return NULL, so that callers
 * returning a node or a bool can "return fail_at(...)"; those returning an
 * int write "return (fail_at(...), -1)". */
static void *__attribute__((format(printf, 3, 4)))
fail_at(struct parser *p, size_t off, const char *fmt, ...)
{
	if (p->err)
		return NULL; /* the first error is the one to fix */
	va_list ap;
	va_start(ap, fmt);
	char *what = xvasprintf(fmt, ap);
	va_end(ap);
	p->err = xasprintf("%s:%u:%zu: %s", p->file, p->lineno, off + 1, what);
	free(what);
	return NULL;
}

static bool name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

static bool glob_start(char c)
{
	return c == '*' || c == '?' || c == '[';
}

/* A bracket expression of a key pattern, from its '['; the offset after
 * its ']', or 0 when it is not closed within the part. */
static size_t bracket_end(const char *s, size_t i, size_t len)
{
	for (size_t j = i + 1; j < len; j++) {
		if (s[j] == ']' && j > i + 1)
			return j + 1;
		if (!name_char(s[j]) && s[j] != '!' && s[j] != '^' && s[j] != '-' && s[j] != ']')
			return 0;
	}
	return 0;
}

static int check_parts(struct parser *p, const struct token *t)
{
	const char *s = t->text;
	size_t parts = 1;
	bool globstar = false;

	if (!strpbrk(s, ".*?["))
		return 0; /* a word */
	for (const char *part = s;; part++) {
		const char *dot = strchr(part, '.');
		size_t n = dot ? (size_t)(dot - part) : strlen(part);
		if (n == 0)
			return (fail_at(p, t->start, "expected a key FAMILY.PROBE.ITEM, got '%s' "
				       "(an empty part)", s), -1);
		if (memmem(part, n, "**", 2) && n != 2)
			return (fail_at(p, t->start, "'**' must be a whole part of the key "
				       "pattern '%s'", s), -1);
		globstar |= n == 2 && strncmp(part, "**", 2) == 0;
		if (!dot)
			break;
		parts++;
		part = dot;
	}
	if (parts < 3 && !globstar)
		return (fail_at(p, t->start, "expected a key FAMILY.PROBE.ITEM, got '%s' (quote "
			       "text that holds a dot: \"%s\")", s, s), -1);
	return 0;
}

/* A word (letters, digits, '_', '-' between them) or a key pattern (also
 * '.', '*', '?' and bracket expressions).  A '-' belongs to the name only
 * between name characters, so "a.b.c - 1" and "a.b.c -1" subtract. */
static int lex_name(struct parser *p, struct token *t)
{
	const char *s = p->line;
	size_t i = p->pos;
	while (i < p->len) {
		char c = s[i];
		if (name_char(c) || c == '.' || c == '*' || c == '?') {
			i++;
		} else if (c == '-' && i > p->pos && name_char(s[i - 1]) && i + 1 < p->len &&
			   name_char(s[i + 1])) {
			i++;
		} else if (c == '[') {
			size_t e = bracket_end(s, i, p->len);
			if (!e)
				return (fail_at(p, i, "a '[' without its ']' in a key pattern"), -1);
			i = e;
		} else {
			break;
		}
	}
	t->end = i;
	t->text = grab_str(p, s + p->pos, i - p->pos);
	t->kind = strpbrk(t->text, ".*?[") ? T_KEY : T_WORD;
	return check_parts(p, t);
}

static int digit_value(char c, int base)
{
	int d = aw_hex_digit(c);
	return d < base ? d : -1;
}

/* Decimal or 0x hexadecimal, up to 2^127 - 1. */
static int lex_number(struct parser *p, struct token *t)
{
	const char *s = p->line;
	size_t i = p->pos, first;
	int base = 10;
	i128 v = 0;

	if (s[i] == '0' && i + 1 < p->len && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
		base = 16;
		i += 2;
	}
	for (first = i; i < p->len && digit_value(s[i], base) >= 0; i++) {
		int d = digit_value(s[i], base);
		if (v > (I128_MAX - d) / base)
			return (fail_at(p, p->pos, "a number larger than 2^127 - 1"), -1);
		v = v * base + d;
	}
	if (i == first || (i < p->len && (name_char(s[i]) || s[i] == '.'))) {
		size_t e = i;
		while (e < p->len && (name_char(s[e]) || s[e] == '.'))
			e++;
		return (fail_at(p, p->pos, "expected a number (decimal, or hexadecimal after 0x), "
			       "got '%.*s'", (int)(e - p->pos), s + p->pos), -1);
	}
	t->kind = T_NUM;
	t->num = v;
	t->end = i;
	return 0;
}

/* One escape at s[i] == '\\': those of the snapshot format (\\\\, \\n,
 * \\xHH), so that any value can be written, and \\" for the quote.  The
 * byte, or -1 after the error; *i is left on the escape's last byte. */
static int unescape(struct parser *p, const char *s, size_t *i)
{
	size_t at = *i;
	char c = at + 1 < p->len ? s[at + 1] : '\0';
	if (c == '"' || c == '\\' || c == 'n') {
		*i += 1;
		return c == 'n' ? '\n' : c;
	}
	int hi = at + 3 < p->len && c == 'x' ? digit_value(s[at + 2], 16) : -1;
	int lo = hi >= 0 ? digit_value(s[at + 3], 16) : -1;
	if (lo < 0)
		return (fail_at(p, at, "an escape other than \\\", \\\\, \\n or \\xHH in a string"), -1);
	if (hi == 0 && lo == 0)
		return (fail_at(p, at, "\\x00 in a string: values hold no NUL byte"), -1);
	*i += 3;
	return hi * 16 + lo;
}

/* "...", with the escapes above. */
static int lex_string(struct parser *p, struct token *t)
{
	const char *s = p->line;
	char *out = grab(p, p->len - p->pos + 1);
	size_t n = 0;

	for (size_t i = p->pos + 1; i < p->len; i++) {
		int c = (unsigned char)s[i];
		if (c == '"') {
			t->kind = T_STR;
			t->text = out;
			t->end = i + 1;
			return 0;
		}
		if (c == '\\') {
			if ((c = unescape(p, s, &i)) < 0)
				return -1;
		} else if (c < 0x20 || c == 0x7f) {
			return (fail_at(p, i, "a control character 0x%02x in a string", c), -1);
		}
		out[n++] = (char)c;
	}
	return (fail_at(p, p->pos, "a string without its closing '\"'"), -1);
}

static enum tok punctuation(const char *s, size_t left, size_t *n)
{
	static const struct { const char *text; enum tok kind; } ops[] = {
		{ "==", T_EQ }, { "!=", T_NE }, { "<=", T_LE }, { ">=", T_GE }, { "<", T_LT },
		{ ">", T_GT }, { "+", T_PLUS }, { "-", T_MINUS }, { "*", T_STAR }, { "(", T_LPAREN },
		{ ")", T_RPAREN }, { "{", T_LBRACE }, { "}", T_RBRACE }, { ",", T_COMMA },
		{ ":", T_COLON },
	};
	for (size_t i = 0; i < AW_ARRAY_SIZE(ops); i++) {
		*n = strlen(ops[i].text);
		if (*n <= left && strncmp(s, ops[i].text, *n) == 0)
			return ops[i].kind;
	}
	*n = 1;
	return T_BAD;
}

/* The next token; in operand position a '*', '?' or '[' starts a key
 * pattern, elsewhere '*' multiplies.  0, or -1 with the error set. */
static int lex(struct parser *p, bool operand, struct token *t)
{
	while (p->pos < p->len && (p->line[p->pos] == ' ' || p->line[p->pos] == '\t'))
		p->pos++;
	memset(t, 0, sizeof(*t));
	t->start = t->end = p->pos;
	if (p->pos == p->len || p->line[p->pos] == '#')
		return 0; /* T_END */
	unsigned char c = (unsigned char)p->line[p->pos];
	int rc = 0;
	if (c < 0x20 || c == 0x7f)
		return (fail_at(p, p->pos, "a control character 0x%02x", c), -1);
	if (c >= 0x80)
		return (fail_at(p, p->pos, "a byte 0x%02x outside a string or a comment", c), -1);
	if (c == '"')
		rc = lex_string(p, t);
	else if (isdigit(c))
		rc = lex_number(p, t);
	else if (isalpha(c) || c == '_' || (operand && glob_start((char)c)))
		rc = lex_name(p, t);
	else {
		size_t n;
		t->kind = punctuation(p->line + p->pos, p->len - p->pos, &n);
		t->end = p->pos + n;
	}
	if (rc == 0)
		p->pos = t->end;
	return rc;
}

static struct token *peek(struct parser *p, bool operand)
{
	if (p->have && p->operand == operand)
		return &p->tok;
	if (p->have)
		p->pos = p->tok.start; /* lexed for the other position: again */
	p->have = false;
	if (lex(p, operand, &p->tok) != 0)
		return NULL;
	p->have = true;
	p->operand = operand;
	return &p->tok;
}

static void consume(struct parser *p)
{
	p->have = false;
}

/* The token as written, for "got ..." in messages. */
static char *got(struct parser *p, const struct token *t)
{
	if (t->kind == T_END)
		return grab_str(p, "the end of the rule", strlen("the end of the rule"));
	size_t n = t->end - t->start;
	char *q = grab(p, 60);
	snprintf(q, 60, "'%.*s%s'", (int)(n > 40 ? 40 : n), p->line + t->start, n > 40 ? "..." : "");
	return q;
}

static bool is_word(const struct token *t, const char *w)
{
	return t->kind == T_WORD && strcmp(t->text, w) == 0;
}

static bool keyword(const char *w)
{
	static const char *const words[] = { "and", "or", "not", "in", "is" };
	for (size_t i = 0; i < AW_ARRAY_SIZE(words); i++)
		if (strcmp(w, words[i]) == 0)
			return true;
	return false;
}

/* ---- types, checked as the tree is built ---- */

static node *new_node(struct parser *p, enum node_kind k, enum type ty, size_t col)
{
	node *n = grab(p, sizeof(*n));
	n->kind = k;
	n->type = ty;
	n->col = col;
	return n;
}

static bool need_bool(struct parser *p, const node *n)
{
	return n->type == TY_BOOL ||
	       fail_at(p, n->col, "expected a condition (a comparison, 'in' or 'is'), got a value");
}

static bool need_value(struct parser *p, const node *n)
{
	return n->type != TY_BOOL ||
	       fail_at(p, n->col, "expected a value, got a condition (put conditions together "
		       "with 'and' and 'or')");
}

static bool need_number(struct parser *p, const node *n)
{
	if (n->type == TY_NUM || n->type == TY_VALUE)
		return true;
	fail_at(p, n->col, "arithmetic needs numbers, got %s",
		n->type == TY_TEXT ? "text" : "a condition");
	return false;
}

/* Text and numbers do not mix; text has no order. */
static bool check_compare(struct parser *p, enum cmp op, const node *a, const node *b)
{
	if (!need_value(p, a) || !need_value(p, b))
		return false;
	if (op >= C_LT && (a->type == TY_TEXT || b->type == TY_TEXT))
		return fail_at(p, (a->type == TY_TEXT ? a : b)->col, "'%s' orders numbers; text is "
			       "compared with ==, != or in", cmp_text[op]);
	if ((a->type == TY_NUM && b->type == TY_TEXT) || (a->type == TY_TEXT && b->type == TY_NUM))
		return fail_at(p, b->col, "compares a number with text");
	return true;
}

/* ---- parsing: precedence climbing ---- */

enum { P_OR = 1, P_AND, P_NOT, P_CMP, P_ADD, P_MUL, P_NEG, P_ATOM };

static node *parse_expr(struct parser *p, int minprec);

static int infix_prec(const struct token *t)
{
	if (is_word(t, "or"))
		return P_OR;
	if (is_word(t, "and"))
		return P_AND;
	if (is_word(t, "in") || is_word(t, "is") || is_word(t, "not") ||
	    (t->kind >= T_EQ && t->kind <= T_GE))
		return P_CMP;
	if (t->kind == T_PLUS || t->kind == T_MINUS)
		return P_ADD;
	return t->kind == T_STAR ? P_MUL : 0;
}

static node *parse_group(struct parser *p, size_t open)
{
	node *e = parse_expr(p, P_OR);
	struct token *t = e ? peek(p, false) : NULL;
	if (!t)
		return NULL;
	if (t->kind != T_RPAREN)
		return fail_at(p, t->start, "expected ')' to close the '(' of column %zu, got %s",
			       open + 1, got(p, t));
	consume(p);
	return e;
}

/* A word in operand position: "not CONDITION", or text. */
static node *parse_word(struct parser *p, const struct token *t)
{
	size_t at = t->start;
	node *n, *a;

	if (is_word(t, "not")) {
		consume(p);
		if (!(a = parse_expr(p, P_NOT)) || !need_bool(p, a))
			return NULL;
		n = new_node(p, N_NOT, TY_BOOL, at);
		n->a = a;
		return n;
	}
	if (keyword(t->text))
		return fail_at(p, at, "expected a value, got the keyword '%s' (quote it as "
			       "text: \"%s\")", t->text, t->text);
	n = new_node(p, N_TEXT, TY_TEXT, at);
	n->text = t->text;
	consume(p);
	return n;
}

static node *parse_prefix(struct parser *p)
{
	struct token *t = peek(p, true);
	if (!t)
		return NULL;
	size_t at = t->start;
	node *n = NULL, *a;

	switch (t->kind) {
	case T_NUM:
		n = new_node(p, N_INT, TY_NUM, at);
		n->num = t->num;
		break;
	case T_STR:
		n = new_node(p, N_TEXT, TY_TEXT, at);
		n->text = t->text;
		break;
	case T_KEY:
		n = new_node(p, N_KEY, TY_VALUE, at);
		n->text = t->text;
		break;
	case T_WORD:
		return parse_word(p, t);
	case T_MINUS:
		consume(p);
		if (!(a = parse_expr(p, P_NEG)) || !need_number(p, a))
			return NULL;
		n = new_node(p, N_NEG, TY_NUM, at);
		n->a = a;
		return n;
	case T_LPAREN:
		consume(p);
		return parse_group(p, at);
	default:
		return fail_at(p, at, "expected a key, a number, a string, 'not', '-' or '(', got %s",
			       got(p, t));
	}
	consume(p);
	return n;
}

/* One member of a set: a number (perhaps negative), a word or a string. */
static node *parse_member(struct parser *p)
{
	struct token *t = peek(p, true);
	size_t at = t ? t->start : 0;
	bool minus = t && t->kind == T_MINUS;

	if (minus) {
		consume(p);
		t = peek(p, true);
	}
	if (!t)
		return NULL;
	if (t->kind == T_NUM) {
		node *n = new_node(p, N_INT, TY_NUM, at);
		n->num = minus ? -t->num : t->num;
		consume(p);
		return n;
	}
	if (!minus && (t->kind == T_STR || (t->kind == T_WORD && !keyword(t->text)))) {
		node *n = new_node(p, N_TEXT, TY_TEXT, at);
		n->text = t->text;
		consume(p);
		return n;
	}
	return fail_at(p, t->start, "expected a number, a word or a string in the set, got %s",
		       got(p, t));
}

/* The members up to '}' into *members (grown as needed); true at '}'. */
static bool parse_members(struct parser *p, const node *in, node ***members, size_t *n)
{
	size_t cap = 0;
	for (;;) {
		node *m = parse_member(p);
		struct token *t;
		if (!m)
			return false;
		if (in->a->type == TY_NUM && m->type == TY_TEXT)
			return fail_at(p, m->col, "compares a number with text");
		*members = grow(*members, &cap, *n + 1, sizeof(**members));
		(*members)[(*n)++] = m;
		if (!(t = peek(p, false)))
			return false;
		consume(p);
		if (t->kind == T_RBRACE)
			return true;
		if (t->kind != T_COMMA)
			return fail_at(p, t->start, "expected ',' or '}' in the set, got %s", got(p, t));
	}
}

/* Members in value order (numbers before text), then by column. */
static int by_member_value(const void *x, const void *y)
{
	const node *a = *(node *const *)x, *b = *(node *const *)y;
	if (a->kind != b->kind)
		return a->kind == N_INT ? -1 : 1;
	int c = a->kind == N_INT ? (a->num > b->num) - (a->num < b->num) : strcmp(a->text, b->text);
	return c ? c : (a->col > b->col) - (a->col < b->col);
}

/* A value listed twice is a slip (a typo for another value, most likely),
 * not a harmless repetition.  Sorted, so a big set stays cheap. */
static bool members_distinct(struct parser *p, node **members, size_t n)
{
	node **sorted = xmalloc((n ? n : 1) * sizeof(*sorted));
	memcpy(sorted, members, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), by_member_value);
	node *twice = NULL;
	for (size_t i = 1; i < n && !twice; i++) {
		const node *a = sorted[i - 1], *b = sorted[i];
		if (a->kind == b->kind && (a->kind == N_INT ? a->num == b->num : strcmp(a->text, b->text) == 0))
			twice = sorted[i];
	}
	free(sorted);
	return !twice || fail_at(p, twice->col, "this value is already in the set");
}

static node *parse_set(struct parser *p, node *in)
{
	struct token *t = peek(p, true);
	node **members = NULL;
	size_t n = 0;

	if (!t)
		return NULL;
	if (t->kind != T_LBRACE)
		return fail_at(p, t->start, "expected a set after 'in': {a, b, 3}, got %s", got(p, t));
	consume(p);
	if ((t = peek(p, true)) && t->kind == T_RBRACE) {
		consume(p);
		return in;
	}
	bool ok = t && parse_members(p, in, &members, &n) && members_distinct(p, members, n);
	if (ok) {
		in->set = grab(p, n * sizeof(*in->set));
		memcpy(in->set, members, n * sizeof(*in->set));
		in->nset = n;
	}
	free(members);
	return ok ? in : NULL;
}

static node *parse_is(struct parser *p, node *key, size_t at)
{
	struct token *t = peek(p, true);
	node *n = new_node(p, N_IS, TY_BOOL, at);

	if (key->kind != N_KEY)
		return fail_at(p, key->col, "'is' tests a check: write CHECK is pass (or fail, skip, "
			       "error, timeout)");
	n->a = key;
	if (t && is_word(t, "not")) {
		n->negated = true;
		consume(p);
		t = peek(p, true);
	}
	if (!t)
		return NULL;
	if (t->kind == T_WORD && aw_status_parse(t->text, strlen(t->text), &n->state) == 0) {
		consume(p);
		return n;
	}
	return fail_at(p, t->start, "expected pass, fail, skip, error or timeout, got %s", got(p, t));
}

static node *parse_in(struct parser *p, node *left, size_t at, bool negated)
{
	if (negated) {
		struct token *t = peek(p, false);
		if (!t)
			return NULL;
		if (!is_word(t, "in"))
			return fail_at(p, t->start, "expected 'in' after 'not', got %s", got(p, t));
		consume(p);
	}
	if (!need_value(p, left))
		return NULL;
	node *n = new_node(p, N_IN, TY_BOOL, at);
	n->a = left;
	n->negated = negated;
	return parse_set(p, n);
}

static node *parse_binary(struct parser *p, node *left, const struct token *op, int prec)
{
	static const enum node_kind kinds[] = { [T_PLUS] = N_ADD, [T_MINUS] = N_SUB, [T_STAR] = N_MUL };
	enum tok k = op->kind;
	bool logic = k == T_WORD;
	node *right = parse_expr(p, prec == P_CMP ? P_ADD : prec + 1);

	if (!right)
		return NULL;
	if (logic) {
		if (!need_bool(p, left) || !need_bool(p, right))
			return NULL;
		node *n = new_node(p, prec == P_OR ? N_OR : N_AND, TY_BOOL, left->col);
		n->a = left;
		n->b = right;
		return n;
	}
	if (prec == P_CMP) {
		enum cmp c = (enum cmp)(k - T_EQ);
		if (!check_compare(p, c, left, right))
			return NULL;
		node *n = new_node(p, N_CMP, TY_BOOL, left->col);
		n->cmp = c;
		n->a = left;
		n->b = right;
		return n;
	}
	if (!need_number(p, left) || !need_number(p, right))
		return NULL;
	node *n = new_node(p, kinds[k], TY_NUM, left->col);
	n->a = left;
	n->b = right;
	return n;
}

static node *parse_infix(struct parser *p, node *left, int prec)
{
	struct token op = p->tok;
	consume(p);
	if (is_word(&op, "is"))
		return parse_is(p, left, left->col);
	if (is_word(&op, "in") || is_word(&op, "not"))
		return parse_in(p, left, left->col, is_word(&op, "not"));
	return parse_binary(p, left, &op, prec);
}

static node *parse_expr(struct parser *p, int minprec)
{
	if (++p->depth > MAX_DEPTH)
		return fail_at(p, p->have ? p->tok.start : p->pos, "nested deeper than %d", MAX_DEPTH);
	node *left = parse_prefix(p);
	bool compared = false;
	int chained = 0;

	while (left) {
		struct token *t = peek(p, false);
		int prec = t ? infix_prec(t) : 0;
		if (!t)
			left = NULL;
		if (t && t->kind == T_BAD) {
			bool eq = p->line[t->start] == '=';
			left = fail_at(p, t->start, "expected an operator, got %s%s", got(p, t),
				       eq ? " (equality is '==')" : "");
		}
		if (!prec || prec < minprec)
			break;
		if (prec == P_CMP && compared) {
			left = fail_at(p, t->start, "comparisons do not chain: join them with 'and'");
			break;
		}
		if (++chained > MAX_CHAIN) {
			left = fail_at(p, t->start, "more than %d operators in a row (a set, "
				       "'in {...}', is the way to list many values)", MAX_CHAIN);
			break;
		}
		left = parse_infix(p, left, prec);
		compared = prec == P_CMP;
	}
	p->depth--;
	return left;
}

/* ---- a rule: its keys ---- */

static bool has_wildcard(const char *pattern)
{
	return strpbrk(pattern, "*?[") != NULL;
}

/* Record a key the rule names.  One pattern with wildcards at most, so
 * that "for every key it matches" has one meaning. */
static bool add_key(struct parser *p, struct aw_rule *r, const node *k, bool check)
{
	bool wild = has_wildcard(k->text);
	for (size_t i = 0; i < r->nkeys; i++) {
		const struct aw_assume_key *o = &r->keys[i];
		if (strcmp(o->pattern, k->text) == 0 && o->check != check)
			return fail_at(p, k->col, "'%s' names a check here ('is') and an observation "
				       "elsewhere in the rule", k->text);
		if (strcmp(o->pattern, k->text) == 0)
			return true;
		if (wild && o->wild)
			return fail_at(p, k->col, "a rule quantifies over one key pattern; '%s' is a "
				       "second one besides '%s' (write a rule for each)",
				       k->text, o->pattern);
	}
	r->keys = xgrow(r->keys, r->nkeys, sizeof(*r->keys));
	r->keys[r->nkeys++] = (struct aw_assume_key){ k->text, check, wild };
	return true;
}

static bool collect_keys(struct parser *p, struct aw_rule *r, const node *n, bool check)
{
	if (!n)
		return true;
	if (n->kind == N_KEY)
		return add_key(p, r, n, check);
	bool ok = collect_keys(p, r, n->a, n->kind == N_IS) && collect_keys(p, r, n->b, false);
	for (size_t i = 0; ok && i < n->nset; i++)
		ok = collect_keys(p, r, n->set[i], false);
	return ok;
}

static char *trimmed(const char *s, size_t from, size_t to)
{
	while (to > from && (s[to - 1] == ' ' || s[to - 1] == '\t'))
		to--;
	return strndup(s + from, to - from);
}

/* The ": "message"" after the condition, and nothing else. */
static bool parse_message(struct parser *p, struct aw_rule *r, size_t start)
{
	struct token *t = peek(p, false);
	if (!t)
		return false;
	if (t->kind != T_COLON)
		return fail_at(p, t->start, "expected ':' and the rule's message in quotes after the "
			       "condition, got %s", got(p, t));
	r->condition = trimmed(p->line, start, t->start);
	consume(p);
	if (!(t = peek(p, true)))
		return false;
	if (t->kind != T_STR)
		return fail_at(p, t->start, "expected the rule's message as a quoted string, got %s",
			       got(p, t));
	if (!*t->text)
		return fail_at(p, t->start, "an empty message: say what the program relies on");
	r->message = xstrdup(t->text);
	consume(p);
	if (!(t = peek(p, false)))
		return false;
	return t->kind == T_END ||
	       fail_at(p, t->start, "expected the end of the rule after its message, got %s", got(p, t));
}

static void rule_free(struct aw_rule *r)
{
	for (size_t i = 0; i < r->nblocks; i++)
		free(r->blocks[i]);
	free(r->blocks);
	free(r->keys);
	free(r->condition);
	free(r->message);
	memset(r, 0, sizeof(*r));
}

/* 1 and *r filled, 0 for a line without a rule, -1 on error. */
static int parse_line(struct parser *p, struct aw_rule *r)
{
	struct token *t = peek(p, true);
	if (!t)
		return -1;
	if (t->kind == T_END)
		return 0;
	size_t start = t->start;
	memset(r, 0, sizeof(*r));
	r->line = p->lineno;
	node *cond = parse_expr(p, P_OR);
	bool ok = cond && (cond->type == TY_BOOL ||
			   fail_at(p, cond->col, "expected a condition: KEY OP VALUE, KEY in {...} "
				   "or CHECK is STATE"));
	ok = ok && parse_message(p, r, start) && collect_keys(p, r, cond, false);
	if (ok && r->nkeys == 0)
		ok = fail_at(p, start, "a rule must name an observation or a check");
	r->cond = cond;
	r->blocks = p->blocks;
	r->nblocks = p->nblocks;
	p->blocks = NULL;
	p->nblocks = p->cap_blocks = 0;
	if (!ok)
		rule_free(r);
	return ok ? 1 : -1;
}

/* A rule written twice is a slip (a copy left behind, an edit made to the
 * wrong line), and two verdicts on one condition would only confuse: say
 * where the first one is.  0, or -1 with p->err set. */
static int refuse_repeated_rule(struct parser *p, const struct aw_assumptions *a,
				const struct aw_rule *r)
{
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->rules[i].condition, r->condition) == 0) {
			fail_at(p, strspn(p->line, " \t"), "the rule of line %u again: "
				"each condition once", a->rules[i].line);
			return -1;
		}
	return 0;
}

static unsigned line_at(const char *text, size_t off)
{
	unsigned n = 1;
	for (size_t i = 0; i < off; i++)
		n += text[i] == '\n';
	return n;
}

int aw_assume_parse(const char *text, size_t len, const char *name,
		    struct aw_assumptions *a, char **err)
{
	const char *nul = memchr(text, '\0', len);
	memset(a, 0, sizeof(*a));
	if (nul) {
		*err = xasprintf("%s:%u: a NUL byte: not a text assumptions file", name,
				 line_at(text, (size_t)(nul - text)));
		return -1;
	}
	struct parser p = { .file = name };
	size_t cap = 0;
	for (size_t pos = 0; pos < len;) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - text) : len;
		struct aw_rule r;
		p.lineno++;
		p.line = text + pos;
		p.len = end - pos;
		p.pos = 0;
		p.have = false;
		p.depth = 0;
		int rc = parse_line(&p, &r);
		if (rc > 0 && refuse_repeated_rule(&p, a, &r) != 0) {
			rule_free(&r);
			rc = -1;
		}
		if (rc < 0) {
			/* What an error left in the parser (a token lexed
			 * before the rule began) goes too. */
			for (size_t i = 0; i < p.nblocks; i++)
				free(p.blocks[i]);
			free(p.blocks);
			*err = p.err;
			aw_assume_free(a);
			return -1;
		}
		if (rc > 0) {
			a->rules = grow(a->rules, &cap, a->n + 1, sizeof(*a->rules));
			a->rules[a->n++] = r;
		}
		pos = end + 1;
	}
	return 0;
}

int aw_assume_load(const char *path, struct aw_assumptions *a, char **err)
{
	char *text;
	size_t len;
	memset(a, 0, sizeof(*a));
	if (aw_textfile_read(path, "assumptions file", AW_TEXTFILE_MAX, &text, &len, err) != 0)
		return -1;
	int rc = aw_assume_parse(text, len, path, a, err);
	free(text);
	return rc;
}

void aw_assume_free(struct aw_assumptions *a)
{
	for (size_t i = 0; i < a->n; i++)
		rule_free(&a->rules[i]);
	free(a->rules);
	memset(a, 0, sizeof(*a));
}

/* ---- matching keys ---- */

static size_t split_parts(const char *s, char **copy, char ***parts)
{
	size_t n = 1;
	*copy = xstrdup(s);
	for (const char *c = s; *c; c++)
		n += *c == '.';
	*parts = xcalloc(n, sizeof(**parts));
	char *part = *copy;
	for (size_t i = 0; i < n; i++) {
		char *dot = strchr(part, '.');
		if (dot)
			*dot = '\0';
		(*parts)[i] = part;
		part = dot ? dot + 1 : part;
	}
	return n;
}

/* can[j]: the pattern's parts so far match the name's first j parts.
 * With tail, also whether the pattern can go on past the whole name
 * (the name is a probe's, and an item's name would follow). */
static bool match_parts(char **pat, size_t np, char **name, size_t nn, bool tail)
{
	bool *can = xcalloc(nn + 1, sizeof(bool)), *next = xcalloc(nn + 1, sizeof(bool));
	bool result = false;

	can[0] = true;
	for (size_t i = 0; i < np; i++) {
		bool globstar = strcmp(pat[i], "**") == 0, any = false;
		if (tail && can[nn])
			result = true; /* parts i.. are left for the item */
		for (size_t j = 0; j <= nn; j++) {
			any |= can[j];
			next[j] = globstar ? any
				  : j > 0 && can[j - 1] && fnmatch(pat[i], name[j - 1], 0) == 0;
		}
		memcpy(can, next, (nn + 1) * sizeof(bool));
		if (tail && globstar && can[nn])
			result = true; /* "**" goes on into the item */
	}
	if (!tail)
		result = can[nn];
	free(can);
	free(next);
	return result;
}

static bool match(const char *pattern, const char *name, bool tail)
{
	char *pc, *nc, **pp, **np;
	size_t npat = split_parts(pattern, &pc, &pp), nn = split_parts(name, &nc, &np);
	bool hit = match_parts(pp, npat, np, nn, tail);
	free(pc);
	free(nc);
	free(pp);
	free(np);
	return hit;
}

bool aw_key_match(const char *pattern, const char *name)
{
	return match(pattern, name, false);
}

/* Whether a key pattern names the catalogue item called name: matches
 * it, or is a key that a pattern item of that name covers
 * ("sysctl.knob.kernel.pid_max.value" and "sysctl.knob.*.value"). */
static bool names_item(const char *pattern, const char *name)
{
	const struct aw_catalogue_entry *e;
	return aw_key_match(pattern, name) ||
	       (strchr(name, '*') && (e = aw_catalogue_find(pattern)) && strcmp(e->name, name) == 0);
}

bool aw_assume_names(const struct aw_assumptions *a, bool check, const char *name)
{
	for (size_t i = 0; i < a->n; i++)
		for (size_t k = 0; k < a->rules[i].nkeys; k++)
			if (a->rules[i].keys[k].check == check &&
			    names_item(a->rules[i].keys[k].pattern, name))
				return true;
	return false;
}

struct aw_probe_ref *aw_assume_probes(const struct aw_assumptions *a, size_t *n)
{
	const struct aw_catalogue_entry *cat;
	size_t ncat = aw_catalogue(&cat);
	struct aw_probe_ref *refs = NULL;

	*n = 0;
	for (size_t i = 0; i < ncat; i++) {
		const struct aw_item *it = cat[i].item;
		if (!it || !aw_assume_names(a, it->kind == AW_CHECK, cat[i].name))
			continue;
		if (*n && refs[*n - 1].probe == cat[i].ref.probe)
			continue; /* named already by an item before */
		refs = xgrow(refs, *n, sizeof(*refs));
		refs[(*n)++] = cat[i].ref;
	}
	return refs;
}

/* ---- why a key is missing ---- */

/* The first probe of this binary (in declaration order) declaring an
 * item of that kind the pattern matches, or NULL.  A probe whose name the
 * pattern cannot begin to match is passed over with all its items. */
static const char *known_probe(const char *pattern, bool check)
{
	const struct aw_catalogue_entry *cat;
	size_t n = aw_catalogue(&cat);
	bool could = false;

	for (size_t i = 0; i < n; i++) {
		if (aw_catalogue_is_probe(&cat[i]))
			could = match(pattern, cat[i].name, true);
		else if (could && cat[i].item && (cat[i].item->kind == AW_CHECK) == check &&
			 names_item(pattern, cat[i].name))
			return aw_catalogue_probe_of(cat[i].name)->name;
	}
	return NULL;
}

/* The snapshot's probes that could have reported the key, as "; "-joined
 * "probe.X = skip: why" for those that did not run to the end; *ran
 * counts the others and *first_ran names one. */
static char *probes_under(const struct aw_snapshot *s, const char *pattern, size_t *ran,
			  const char **first_ran)
{
	char *out = NULL;
	*ran = 0;
	*first_ran = NULL;
	for (size_t i = 0; i < s->n; i++) {
		const struct aw_record *r = &s->records[i];
		if (r->cls != AW_KEY_PROBE || !match(pattern, r->name, true))
			continue;
		if (r->status == AW_ST_PASS) {
			*first_ran = *first_ran ? *first_ran : r->name;
			(*ran)++;
			continue;
		}
		char *v = aw_escape(r->value);
		char *more = xasprintf("%s%sprobe %s: %s", out ? out : "", out ? "; " : "", r->name, v);
		free(v);
		free(out);
		out = more;
	}
	return out;
}

static char *why_missing(const struct aw_snapshot *s, const char *pattern, bool check)
{
	const char *what = check ? "check" : "observation", *first, *known;
	size_t ran;
	char *skipped = probes_under(s, pattern, &ran, &first), *why;

	if (skipped)
		why = xasprintf("no %s matches %s: %s", what, pattern, skipped);
	else if (ran)
		why = xasprintf("no %s matches %s, although probe %s%s ran", what, pattern, first,
				ran > 1 ? " and others" : "");
	else if ((known = known_probe(pattern, check)))
		why = xasprintf("no %s matches %s: the snapshot has no result of probe %s "
				"(it was not run)", what, pattern, known);
	else
		why = xasprintf("no %s matches %s: no probe of this abiwatch (%s) reports one",
				what, pattern, ABIWATCH_VERSION);
	free(skipped);
	return why;
}

/* ---- evaluation ---- */

enum tv { TV_FALSE, TV_TRUE, TV_UNKNOWN };

struct fact {
	char *text;
	bool unknown;
	char cause[AW_CAUSE_MAX]; /* of the skip it reports, or "" */
};

struct ev {
	const struct aw_snapshot *s;
	const char *wild;  /* the quantified pattern, or NULL */
	const char *bound; /* the key it stands for now */
	struct fact *facts;
	size_t nfacts;
};

struct val {
	bool known, number;
	i128 num;
	const char *text;
	const char *key; /* the observation it was read from, or NULL */
};

/* Keep what the verdict rests on (once each), for the details: the
 * fact, new or the same one kept before. */
static struct fact *add_fact(struct ev *e, bool unknown, char *text)
{
	for (size_t i = 0; i < e->nfacts; i++) {
		if (strcmp(e->facts[i].text, text) == 0) {
			free(text);
			return &e->facts[i];
		}
	}
	e->facts = xgrow(e->facts, e->nfacts, sizeof(*e->facts));
	e->facts[e->nfacts] = (struct fact){ text, unknown, "" };
	return &e->facts[e->nfacts++];
}

/* An unknown fact that a record's skip makes: with the skip's cause,
 * when the machine caused it. */
static void add_skip_fact(struct ev *e, const struct aw_record *rec, char *text)
{
	struct fact *f = add_fact(e, true, text);
	const char *why;
	if (rec->status == AW_ST_SKIP)
		(void)aw_reason_cause(rec->reason, f->cause, &why);
}

/* Add cause to the comma-separated list *causes, once. */
static void cause_add(char **causes, const char *cause)
{
	size_t n = strlen(cause);
	for (const char *p = *causes; p && *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] != 0))
		if (strncmp(p, cause, n) == 0 && (p[n] == ',' || !p[n]))
			return;
	char *more = xasprintf("%s%s%s", *causes ? *causes : "", *causes ? "," : "", cause);
	free(*causes);
	*causes = more;
}

/* The cause of the skip of the first probe under pattern that did not
 * run, when the machine caused it: why no key matches. */
static const char *probe_skip_cause(const struct aw_snapshot *s, const char *pattern,
				    char buf[AW_CAUSE_MAX])
{
	const char *why;
	for (size_t i = 0; i < s->n; i++) {
		const struct aw_record *r = &s->records[i];
		if (r->cls == AW_KEY_PROBE && r->status == AW_ST_SKIP && match(pattern, r->name, true) &&
		    aw_reason_cause(r->reason, buf, &why))
			return buf;
	}
	return NULL;
}

/* why_missing() as a fact, with the cause of a probe's skip. */
static void add_missing_fact(struct ev *e, const char *name, bool check)
{
	char buf[AW_CAUSE_MAX];
	const char *cause = probe_skip_cause(e->s, name, buf);
	struct fact *f = add_fact(e, true, why_missing(e->s, name, check));
	if (cause)
		snprintf(f->cause, sizeof(f->cause), "%s", cause);
}

/* An observation's value as an integer: [-]decimal or [-]0xhex, whole. */
static bool parse_int(const char *s, i128 *out)
{
	bool neg = *s == '-';
	int base = 10;
	i128 v = 0;
	s += neg;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!*s)
		return false;
	for (; *s; s++) {
		int d = digit_value(*s, base);
		if (d < 0 || v > (I128_MAX - d) / base)
			return false;
		v = v * base + d;
	}
	*out = neg ? -v : v;
	return true;
}

static const char *key_name(const struct ev *e, const node *n)
{
	return e->wild && strcmp(n->text, e->wild) == 0 ? e->bound : n->text;
}

static void read_obs(struct ev *e, const node *n, struct val *v)
{
	const char *name = key_name(e, n);
	const struct aw_record *obs = aw_snapshot_observation(e->s, name);
	char *esc = aw_escape(obs ? obs->value : "");

	v->key = name;
	if (obs && obs->cls == AW_KEY_OBS) {
		v->known = true;
		v->text = obs->value;
		v->number = parse_int(obs->value, &v->num);
		add_fact(e, false, xasprintf("%s = %s", name, esc));
	} else if (obs) {
		add_skip_fact(e, obs, xasprintf("%s: %s", name, esc));
	} else {
		add_missing_fact(e, name, false);
	}
	free(esc);
}

static void not_a_number(struct ev *e, const struct val *v)
{
	char *esc = aw_escape(v->text);
	add_fact(e, true, xasprintf("%s = %s is not a number", v->key ? v->key : "a value", esc));
	free(esc);
}

static void eval_val(struct ev *e, const node *n, struct val *v);

static void eval_arith(struct ev *e, const node *n, struct val *v)
{
	struct val a = { 0 }, b = { 0 };
	eval_val(e, n->a, &a);
	if (n->b)
		eval_val(e, n->b, &b);
	if (!a.known || (n->b && !b.known))
		return;
	if (!a.number || (n->b && !b.number)) {
		not_a_number(e, !a.number ? &a : &b);
		return;
	}
	bool over = n->kind == N_NEG   ? __builtin_sub_overflow((i128)0, a.num, &v->num)
		    : n->kind == N_ADD ? __builtin_add_overflow(a.num, b.num, &v->num)
		    : n->kind == N_SUB ? __builtin_sub_overflow(a.num, b.num, &v->num)
				       : __builtin_mul_overflow(a.num, b.num, &v->num);
	if (over) {
		add_fact(e, true, xasprintf("the arithmetic overflows 128 bits"));
		return;
	}
	v->known = v->number = true;
}

static void eval_val(struct ev *e, const node *n, struct val *v)
{
	memset(v, 0, sizeof(*v));
	switch (n->kind) {
	case N_INT:
		v->known = v->number = true;
		v->num = n->num;
		return;
	case N_TEXT:
		v->known = true;
		v->text = n->text;
		return;
	case N_KEY:
		read_obs(e, n, v);
		return;
	default:
		eval_arith(e, n, v);
	}
}

/* Equality: as numbers when both are; a number never equals text that
 * is not one; text as bytes. */
static bool equal(const node *na, const struct val *a, const node *nb, const struct val *b)
{
	if (a->number && b->number)
		return a->num == b->num;
	if (na->type == TY_NUM || nb->type == TY_NUM)
		return false;
	return strcmp(a->text, b->text) == 0;
}

static enum tv truth(bool b)
{
	return b ? TV_TRUE : TV_FALSE;
}

static enum tv eval_cmp(struct ev *e, const node *n)
{
	struct val a, b;
	eval_val(e, n->a, &a);
	eval_val(e, n->b, &b);
	if (!a.known || !b.known)
		return TV_UNKNOWN;
	if (n->cmp == C_EQ || n->cmp == C_NE)
		return truth(equal(n->a, &a, n->b, &b) == (n->cmp == C_EQ));
	if (!a.number || !b.number) {
		not_a_number(e, !a.number ? &a : &b);
		return TV_UNKNOWN;
	}
	switch (n->cmp) {
	case C_LT: return truth(a.num < b.num);
	case C_LE: return truth(a.num <= b.num);
	case C_GT: return truth(a.num > b.num);
	default:   return truth(a.num >= b.num);
	}
}

static enum tv eval_in(struct ev *e, const node *n)
{
	struct val a;
	bool found = false;
	eval_val(e, n->a, &a);
	if (!a.known)
		return TV_UNKNOWN;
	for (size_t i = 0; i < n->nset && !found; i++) {
		struct val m;
		eval_val(e, n->set[i], &m);
		found = equal(n->a, &a, n->set[i], &m);
	}
	return truth(found != n->negated);
}

/* pass and fail are outcomes: a check that has none (skip, error,
 * timeout) leaves "is pass" unknown.  The other states are plain facts. */
static enum tv eval_is(struct ev *e, const node *n)
{
	const char *name = key_name(e, n->a);
	const struct aw_record *check = aw_snapshot_find(e->s, AW_KEY_CHECK, name);
	if (!check) {
		add_missing_fact(e, name, true);
		return TV_UNKNOWN;
	}
	char *esc = aw_escape(check->value);
	bool unknown = !aw_status_is_outcome(check->status) && aw_status_is_outcome(n->state);
	if (unknown)
		add_skip_fact(e, check, xasprintf("%s: %s", name, esc));
	else
		add_fact(e, false, xasprintf("%s: %s", name, esc));
	free(esc);
	if (unknown)
		return TV_UNKNOWN;
	return truth((check->status == n->state) != n->negated);
}

static enum tv eval_bool(struct ev *e, const node *n)
{
	enum tv a, b;
	switch (n->kind) {
	case N_CMP:
		return eval_cmp(e, n);
	case N_IN:
		return eval_in(e, n);
	case N_IS:
		return eval_is(e, n);
	case N_NOT:
		a = eval_bool(e, n->a);
		return a == TV_UNKNOWN ? a : truth(a == TV_FALSE);
	default:
		/* Both sides always, so that the details show everything read. */
		a = eval_bool(e, n->a);
		b = eval_bool(e, n->b);
		if (n->kind == N_AND)
			return a == TV_FALSE || b == TV_FALSE ? TV_FALSE
			       : a == TV_TRUE && b == TV_TRUE ? TV_TRUE : TV_UNKNOWN;
		return a == TV_TRUE || b == TV_TRUE ? TV_TRUE
		       : a == TV_FALSE && b == TV_FALSE ? TV_FALSE : TV_UNKNOWN;
	}
}

static void add_detail(struct aw_rule_result *res, char *line)
{
	res->details = xgrow(res->details, res->ndetails, sizeof(*res->details));
	res->details[res->ndetails++] = line;
}

/* The facts a verdict rests on, "; "-joined: the reasons when unknown. */
static char *facts_line(const struct ev *e, enum aw_verdict v)
{
	char *out = NULL;
	for (size_t i = 0; i < e->nfacts; i++) {
		if (e->facts[i].unknown != (v == AW_UNKNOWN))
			continue;
		char *more = xasprintf("%s%s%s", out ? out : "", out ? "; " : "", e->facts[i].text);
		free(out);
		out = more;
	}
	return out ? out : xstrdup("(no value read)");
}

static enum aw_verdict verdict_of(enum tv t)
{
	return t == TV_TRUE ? AW_HELD : t == TV_FALSE ? AW_BROKEN : AW_UNKNOWN;
}

/* Evaluate with the pattern standing for one key (or for none); an
 * unknown verdict adds the causes of the skips it rests on to *causes. */
static enum aw_verdict eval_once(const struct aw_rule *r, const struct aw_snapshot *s,
				 const char *wild, const char *bound, char **line, char **causes)
{
	struct ev e = { .s = s, .wild = wild, .bound = bound };
	enum aw_verdict v = verdict_of(eval_bool(&e, r->cond));
	*line = facts_line(&e, v);
	for (size_t i = 0; v == AW_UNKNOWN && i < e.nfacts; i++)
		if (e.facts[i].unknown && e.facts[i].cause[0])
			cause_add(causes, e.facts[i].cause);
	for (size_t i = 0; i < e.nfacts; i++)
		free(e.facts[i].text);
	free(e.facts);
	return v;
}

static int by_string(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The keys a pattern matches in the snapshot, sorted; observations made
 * and not made alike, so that the unmade ones count as unknown. */
static char **matches(const struct aw_snapshot *s, const struct aw_assume_key *k, size_t *n)
{
	char **out = NULL;

	*n = 0;
	for (size_t i = 0; i < s->n; i++) {
		const struct aw_record *r = &s->records[i];
		bool of_kind = k->check ? r->cls == AW_KEY_CHECK
					: r->cls == AW_KEY_OBS || r->cls == AW_KEY_UNOBSERVED;
		if (of_kind && aw_key_match(k->pattern, r->name)) {
			out = xgrow(out, *n, sizeof(*out));
			out[(*n)++] = xstrdup(r->name);
		}
	}
	if (*n) /* qsort's base must not be NULL, even for nothing */
		qsort(out, *n, sizeof(*out), by_string);
	return out;
}

static const struct aw_assume_key *wild_key(const struct aw_rule *r)
{
	for (size_t i = 0; i < r->nkeys; i++)
		if (r->keys[i].wild)
			return &r->keys[i];
	return NULL;
}

/* For every key the pattern matches: broken if one breaks it, else
 * unknown if one is unknown (or none matches), else held.  Details list
 * the broken keys first, then the unknown, then the held. */
static void eval_quantified(const struct aw_rule *r, const struct aw_assume_key *k,
			    const struct aw_snapshot *s, struct aw_rule_result *res)
{
	size_t n;
	char **keys = matches(s, k, &n);
	char **lines = xcalloc(n, sizeof(*lines));
	enum aw_verdict *v = xcalloc(n, sizeof(*v));
	bool seen[3] = { false };

	for (size_t i = 0; i < n; i++) {
		v[i] = eval_once(r, s, k->pattern, keys[i], &lines[i], &res->cause);
		seen[v[i]] = true;
	}
	res->verdict = seen[AW_BROKEN] ? AW_BROKEN : seen[AW_UNKNOWN] || !n ? AW_UNKNOWN : AW_HELD;
	char buf[AW_CAUSE_MAX];
	if (!n && probe_skip_cause(s, k->pattern, buf))
		cause_add(&res->cause, buf);
	if (res->verdict != AW_UNKNOWN) {
		free(res->cause);
		res->cause = NULL;
	}
	if (!n)
		add_detail(res, why_missing(s, k->pattern, k->check));
	const enum aw_verdict order[] = { AW_BROKEN, AW_UNKNOWN, AW_HELD };
	for (size_t o = 0; o < 3; o++)
		for (size_t i = 0; i < n; i++)
			if (v[i] == order[o])
				add_detail(res, xasprintf("%s: %s", aw_verdict_name(v[i]), lines[i]));
	for (size_t i = 0; i < n; i++) {
		free(keys[i]);
		free(lines[i]);
	}
	free(keys);
	free(lines);
	free(v);
}

void aw_rule_eval(const struct aw_rule *r, const struct aw_snapshot *s,
		  struct aw_rule_result *res)
{
	const struct aw_assume_key *k = wild_key(r);
	memset(res, 0, sizeof(*res));
	if (k) {
		eval_quantified(r, k, s, res);
		return;
	}
	char *line;
	res->verdict = eval_once(r, s, NULL, NULL, &line, &res->cause);
	add_detail(res, line);
}

void aw_rule_result_free(struct aw_rule_result *res)
{
	for (size_t i = 0; i < res->ndetails; i++)
		free(res->details[i]);
	free(res->details);
	free(res->cause);
	memset(res, 0, sizeof(*res));
}

/* ---- canonical form ---- */

static void put_i128(FILE *f, i128 v)
{
	char buf[48];
	size_t n = sizeof(buf);
	unsigned __int128 u = v < 0 ? -(unsigned __int128)v : (unsigned __int128)v;
	buf[--n] = '\0';
	do {
		buf[--n] = (char)('0' + (int)(u % 10));
		u /= 10;
	} while (u);
	if (v < 0)
		buf[--n] = '-';
	fputs(buf + n, f);
}

/* Would the lexer read s back as this one word? */
static bool plain_word(const char *s)
{
	if (!isalpha((unsigned char)*s) && *s != '_')
		return false;
	for (const char *c = s; *c; c++)
		if (!name_char(*c) && !(*c == '-' && name_char(c[-1]) && name_char(c[1])))
			return false;
	return !keyword(s);
}

static void put_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
		if (*c == '"' || *c == '\\')
			fprintf(f, "\\%c", *c);
		else if (*c == '\n')
			fputs("\\n", f);
		else if (*c < 0x20 || *c == 0x7f)
			fprintf(f, "\\x%02x", *c);
		else
			fputc(*c, f);
	}
	fputc('"', f);
}

static void put_text(FILE *f, const char *s)
{
	if (plain_word(s))
		fputs(s, f);
	else
		put_string(f, s);
}

static int prec_of(const node *n)
{
	static const int precs[] = {
		[N_INT] = P_ATOM, [N_TEXT] = P_ATOM, [N_KEY] = P_ATOM, [N_NEG] = P_NEG,
		[N_ADD] = P_ADD, [N_SUB] = P_ADD, [N_MUL] = P_MUL, [N_CMP] = P_CMP,
		[N_IN] = P_CMP, [N_IS] = P_CMP, [N_NOT] = P_NOT, [N_AND] = P_AND, [N_OR] = P_OR,
	};
	return precs[n->kind];
}

static void put_node(FILE *f, const node *n, int ctx);

static void put_set(FILE *f, const node *n)
{
	put_node(f, n->a, P_ADD);
	fputs(n->negated ? " not in {" : " in {", f);
	for (size_t i = 0; i < n->nset; i++) {
		if (i)
			fputs(", ", f);
		put_node(f, n->set[i], P_ATOM);
	}
	fputc('}', f);
}

static void put_binary(FILE *f, const node *n, const char *op, int left, int right)
{
	put_node(f, n->a, left);
	fprintf(f, " %s ", op);
	put_node(f, n->b, right);
}

static void put_node(FILE *f, const node *n, int ctx)
{
	bool parens = prec_of(n) < ctx;
	if (parens)
		fputc('(', f);
	switch (n->kind) {
	case N_INT: put_i128(f, n->num); break;
	case N_TEXT: put_text(f, n->text); break;
	case N_KEY: fputs(n->text, f); break;
	case N_NEG: fputc('-', f); put_node(f, n->a, P_NEG); break;
	case N_ADD: put_binary(f, n, "+", P_ADD, P_MUL); break;
	case N_SUB: put_binary(f, n, "-", P_ADD, P_MUL); break;
	case N_MUL: put_binary(f, n, "*", P_MUL, P_NEG); break;
	case N_CMP: put_binary(f, n, cmp_text[n->cmp], P_ADD, P_ADD); break;
	case N_IN: put_set(f, n); break;
	case N_IS:
		fprintf(f, "%s is %s%s", n->a->text, n->negated ? "not " : "", aw_status_name(n->state));
		break;
	case N_NOT: fputs("not ", f); put_node(f, n->a, P_NOT); break;
	case N_AND: put_binary(f, n, "and", P_AND, P_NOT); break;
	case N_OR: put_binary(f, n, "or", P_OR, P_AND); break;
	}
	if (parens)
		fputc(')', f);
}

char *aw_rule_format(const struct aw_rule *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		abort();
	put_node(f, r->cond, P_OR);
	fputs(": ", f);
	put_string(f, r->message);
	fclose(f);
	return buf;
}
