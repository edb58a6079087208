/* test_json.c - self-checking tests for the driver's JSON reader and writer */
#include "json_read.h"
#include "json_write.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int passed, failed;
static nnh_json_doc doc;  /* too big for comfort on the stack */

#define CHECK(cond, what) check((cond) != 0, what, __LINE__)

static void check(int ok, const char *what, int line)
{
    if (ok) passed++;
    else { failed++; printf("FAIL line %d: %s\n", line, what); }
}

/* Parses text of explicit length and checks the status (and offset if >= 0). */
static void expect_n(const char *text, size_t len, int status, long offset, int line)
{
    int rc = nnh_json_parse(&doc, text, len);
    int ok = rc == status && doc.status == status &&
             (offset < 0 || doc.error_offset == (size_t)offset) &&
             ((rc == NNH_JSON_OK) == (nnh_json_root(&doc) == 0));

    if (ok) { passed++; return; }
    failed++;
    printf("FAIL line %d: input \"%.60s\": got %s@%lu, want %s@%ld\n", line, text,
           nnh_json_status_code(rc), (unsigned long)doc.error_offset,
           nnh_json_status_code(status), offset);
}
#define EXPECT(text, status) expect_n(text, strlen(text), status, -1, __LINE__)
#define EXPECT_AT(text, status, off) expect_n(text, strlen(text), status, off, __LINE__)
#define EXPECT_N(text, len, status) expect_n(text, len, status, -1, __LINE__)

static const nnh_json_node *member(int obj, const char *key)
{
    return nnh_json_node_at(&doc, nnh_json_member(&doc, obj, key));
}

/* Parses a one-element string document and compares the decoded bytes. */
static void expect_str(const char *text, const char *want, size_t want_len, int line)
{
    const nnh_json_node *n;
    int ok = nnh_json_parse(&doc, text, strlen(text)) == NNH_JSON_OK &&
             (n = nnh_json_node_at(&doc, 0)) != NULL && n->kind == NNH_JSON_STRING &&
             n->str_len == want_len && memcmp(n->str, want, want_len) == 0 &&
             n->str[want_len] == '\0';
    check(ok, text, line);
}
#define EXPECT_STR(text, want) expect_str(text, want, sizeof(want) - 1, __LINE__)

static void expect_int(const char *text, long long want, int line)
{
    const nnh_json_node *n;
    int ok = nnh_json_parse(&doc, text, strlen(text)) == NNH_JSON_OK &&
             (n = nnh_json_node_at(&doc, 0)) != NULL && n->kind == NNH_JSON_NUMBER &&
             n->is_integer && n->int_val == want && n->num_val == (double)want;
    check(ok, text, line);
}
#define EXPECT_INT(text, want) expect_int(text, want, __LINE__)

static void expect_dbl(const char *text, double want, int line)
{
    const nnh_json_node *n;
    int ok = nnh_json_parse(&doc, text, strlen(text)) == NNH_JSON_OK &&
             (n = nnh_json_node_at(&doc, 0)) != NULL && n->kind == NNH_JSON_NUMBER &&
             !n->is_integer && n->num_val == want;
    check(ok, text, line);
}
#define EXPECT_DBL(text, want) expect_dbl(text, want, __LINE__)

static void test_happy(void)
{
    const char *t = " {\"a\":1, \"b\":[true,false,null,-2.5],\"c\":{\"d\":\"x\",\"e\":{}},\"f\":[]}\r\n";
    const nnh_json_node *n, *b;
    int root, i, count;

    EXPECT(t, NNH_JSON_OK);
    root = nnh_json_root(&doc);
    CHECK(root == 0, "root index");
    n = nnh_json_node_at(&doc, root);
    CHECK(n && n->kind == NNH_JSON_OBJECT && n->child_count == 4 && n->parent == -1, "root object");
    CHECK(n && n->key == NULL && n->str == NULL, "root has no key/str");
    n = member(root, "a");
    CHECK(n && n->kind == NNH_JSON_NUMBER && n->is_integer && n->int_val == 1, "a == 1");
    CHECK(n && n->key_len == 1 && strcmp(n->key, "a") == 0, "a key");
    b = member(root, "b");
    CHECK(b && b->kind == NNH_JSON_ARRAY && b->child_count == 4, "b array");
    CHECK(b && b->key && strcmp(b->key, "b") == 0, "b key");
    n = nnh_json_node_at(&doc, nnh_json_child(&doc, nnh_json_member(&doc, root, "b"), 0));
    CHECK(n && n->kind == NNH_JSON_BOOL && n->bool_val == 1 && n->key == NULL, "b[0] true");
    n = nnh_json_node_at(&doc, nnh_json_child(&doc, nnh_json_member(&doc, root, "b"), 1));
    CHECK(n && n->kind == NNH_JSON_BOOL && n->bool_val == 0, "b[1] false");
    n = nnh_json_node_at(&doc, nnh_json_child(&doc, nnh_json_member(&doc, root, "b"), 2));
    CHECK(n && n->kind == NNH_JSON_NULL, "b[2] null");
    n = nnh_json_node_at(&doc, nnh_json_child(&doc, nnh_json_member(&doc, root, "b"), 3));
    CHECK(n && n->kind == NNH_JSON_NUMBER && !n->is_integer && n->num_val == -2.5, "b[3] -2.5");
    CHECK(nnh_json_child(&doc, nnh_json_member(&doc, root, "b"), 4) == -1, "b[4] absent");
    CHECK(nnh_json_child(&doc, nnh_json_member(&doc, root, "b"), -1) == -1, "b[-1] absent");

    /* Iteration via links must visit members in source order. */
    count = 0;
    for (i = nnh_json_node_at(&doc, root)->first_child; i >= 0; i = doc.nodes[i].next_sibling) {
        CHECK(doc.nodes[i].parent == root, "member parent");
        count++;
    }
    CHECK(count == 4, "iterated 4 members");
    CHECK(strcmp(doc.nodes[nnh_json_child(&doc, root, 3)].key, "f") == 0, "4th member is f");

    i = nnh_json_member(&doc, nnh_json_member(&doc, root, "c"), "d");
    n = nnh_json_node_at(&doc, i);
    CHECK(n && n->kind == NNH_JSON_STRING && n->str_len == 1 && strcmp(n->str, "x") == 0, "c.d == x");
    CHECK(n && n->parent == nnh_json_member(&doc, root, "c"), "c.d parent");
    n = member(nnh_json_member(&doc, root, "c"), "e");
    CHECK(n && n->kind == NNH_JSON_OBJECT && n->child_count == 0 && n->first_child == -1, "c.e {}");
    n = member(root, "f");
    CHECK(n && n->kind == NNH_JSON_ARRAY && n->child_count == 0, "f []");

    CHECK(nnh_json_member(&doc, root, "zz") == -1, "absent member");
    CHECK(nnh_json_member(&doc, root, "") == -1, "absent empty member");
    CHECK(nnh_json_member(&doc, nnh_json_member(&doc, root, "b"), "a") == -1, "member of array");
    CHECK(nnh_json_member(&doc, -1, "a") == -1, "member of -1");
    CHECK(nnh_json_member(&doc, 9999, "a") == -1, "member of out-of-range");
    CHECK(nnh_json_node_at(&doc, -1) == NULL, "node_at -1");
    CHECK(nnh_json_node_at(&doc, doc.node_count) == NULL, "node_at past end");

    EXPECT("{\"\":1,\"a\":2}", NNH_JSON_OK);
    CHECK(member(0, "") && member(0, "")->int_val == 1, "empty key lookup");
    EXPECT("{\"a\":1,\"ab\":2,\"b\":{\"a\":3}}", NNH_JSON_OK);
    CHECK(member(0, "ab") && member(0, "ab")->int_val == 2, "prefix keys distinct");
    EXPECT("{\"k\":\"\\u00e9\"}", NNH_JSON_OK);

    EXPECT("1", NNH_JSON_OK);
    EXPECT("\"s\"", NNH_JSON_OK);
    EXPECT("true", NNH_JSON_OK);
    EXPECT("null\n", NNH_JSON_OK);
    EXPECT("[]\r\n", NNH_JSON_OK);
    EXPECT(" \t\r\n{ \"a\" : [ 1 , 2 ] } \t\r\n", NNH_JSON_OK);
    EXPECT("{\"caf\xc3\xa9\":\"\xe2\x82\xac\xf0\x9f\x98\x80\xef\xbf\xbf\xf4\x8f\xbf\xbf\x7f\"}", NNH_JSON_OK);
    CHECK(member(0, "caf\xc3\xa9") != NULL, "utf-8 key lookup");

    /* A failed parse must not leave a usable tree behind. */
    EXPECT("[1,", NNH_JSON_MALFORMED);
    CHECK(nnh_json_root(&doc) == -1 && nnh_json_node_at(&doc, 0) == NULL, "no tree after error");
}

static void test_strings(void)
{
    EXPECT_STR("\"\"", "");
    EXPECT_STR("\"plain\"", "plain");
    EXPECT_STR("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", "\"\\/\b\f\n\r\t");
    EXPECT_STR("\"\\u0041\\u00e9\\u20AC\"", "A\xc3\xa9\xe2\x82\xac");
    EXPECT_STR("\"\\u0001\\u001f\\u007f\\u0080\\u07ff\\u0800\\uffff\"",
               "\x01\x1f\x7f\xc2\x80\xdf\xbf\xe0\xa0\x80\xef\xbf\xbf");
    EXPECT_STR("\"\\uD83D\\uDE00\"", "\xf0\x9f\x98\x80");
    EXPECT_STR("\"x\\ud800\\udc00y\"", "x\xf0\x90\x80\x80y");
    EXPECT_STR("\"\\uDBFF\\uDFFF\"", "\xf4\x8f\xbf\xbf");
    EXPECT_STR("\"raw \xc3\xa9 \xf0\x9f\x98\x80\"", "raw \xc3\xa9 \xf0\x9f\x98\x80");
    EXPECT_STR("\"a\\\\u0000\"", "a\\u0000");  /* escaped backslash, not \u */
}

static void test_malformed(void)
{
    static const char *const bad[] = {
        "", "   ", "\n", "{", "}", "[", "]", "[1,]", "[,1]", "[1 2]", "{\"a\":1,}",
        "{,}", "{\"a\" 1}", "{\"a\":}", "{\"a\"}", "{1:2}", "{'a':1}", "{a:1}",
        "\"abc", "\"abc\\", "\"\\x\"", "\"\\u12\"", "\"\\u12G4\"", "\"\\U0041\"",
        "\"\\uD800\\u12\"", "01", "-01", "1.", ".5", "-", "--1", "+1", "1e", "1e+",
        "1.e5", "0x10", "1.5.2", "NaN", "Infinity", "-Infinity", "tru", "nul",
        "falsey", "True", "nulls", "[1]x", "{} {}", "1 2", "[1]]", "[\"a\"\"b\"]",
        "\"a\tb\"", "\"a\nb\"", "\"\x1f\"", "\x0c[]", "[1,\v2]", "/*c*/1", "[1];",
        "{\"a\":1 \"b\":2}", "[true false]", "\xef\xbb\xbf[]" /* BOM */
    };
    size_t i;

    for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
        expect_n(bad[i], strlen(bad[i]), NNH_JSON_MALFORMED, -1, __LINE__);
    EXPECT_AT("[1,]", NNH_JSON_MALFORMED, 3);
    EXPECT_AT("\"a\tb\"", NNH_JSON_MALFORMED, 2);
    EXPECT_AT("[1] x", NNH_JSON_MALFORMED, 4);
    EXPECT_AT("{\"a\":1,\"b\":\"\\q\"}", NNH_JSON_MALFORMED, 12);
    EXPECT_N("[1,2]", 4, NNH_JSON_MALFORMED);  /* length is honoured */
    EXPECT_N("12345", 3, NNH_JSON_OK);
    CHECK(doc.nodes[0].int_val == 123, "length-limited number");
}

static void test_nul(void)
{
    EXPECT_N("[1]\0", 4, NNH_JSON_NUL_BYTE);
    EXPECT_N("\0[1]", 4, NNH_JSON_NUL_BYTE);
    EXPECT_N("\"a\0b\"", 5, NNH_JSON_NUL_BYTE);
    EXPECT_N("{\"a\0\":1}", 8, NNH_JSON_NUL_BYTE);
    CHECK(doc.error_offset == 3, "raw NUL offset");
    EXPECT_AT("\"ab\\u0000\"", NNH_JSON_CONTROL_CHARACTER, 3);
    EXPECT("[\"x\",\"\\u0000\"]", NNH_JSON_CONTROL_CHARACTER);
    /* Even the NUL-valued pair escape of nothing: \u0000 after a good pair. */
    EXPECT("\"\\uD83D\\uDE00\\u0000\"", NNH_JSON_CONTROL_CHARACTER);
}

static void test_utf8(void)
{
    static const char *const bad[] = {
        "\"\xc0\x80\"", "\"\xc1\xbf\"", "\"\xe0\x80\x80\"", "\"\xe0\x9f\xbf\"",
        "\"\xf0\x80\x80\x80\"", "\"\xf0\x8f\xbf\xbf\"",        /* overlong */
        "\"\xed\xa0\x80\"", "\"\xed\xbf\xbf\"",                /* surrogates */
        "\"\xf4\x90\x80\x80\"", "\"\xf5\x80\x80\x80\"", "\"\xff\"", "\"\xfe\"",
        "\"\x80\"", "\"\xbf\"", "\"\xe2\x82\"", "\"\xc3\"", "\"\xf0\x9f\x98\"",
        "\"\xe2\x28\xa1\"",
        "[\xc3]", "\"\\uD800\"", "\"\\uDC00\"", "\"\\uDFFF\\uD800\"",
        "\"\\uD800\\u0041\"", "\"\\uD800x\"", "\"\\uD800\\n\"", "\"\\uD800\\uD800\""
    };
    size_t i;

    for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
        expect_n(bad[i], strlen(bad[i]), NNH_JSON_INVALID_UTF8, -1, __LINE__);
    EXPECT_N("\"\xe2\x82", 3, NNH_JSON_INVALID_UTF8);      /* truncated at end */
    EXPECT_AT("[\"ok\",\"\xed\xa0\x80\"]", NNH_JSON_INVALID_UTF8, 7);
    EXPECT_AT("\"ab\\uDC00\"", NNH_JSON_INVALID_UTF8, 3);
}

static void test_keys(void)
{
    EXPECT("{\"a\":1,\"a\":2}", NNH_JSON_DUPLICATE_FIELD);
    EXPECT_AT("{\"a\":1,\"b\":2,\"a\":3}", NNH_JSON_DUPLICATE_FIELD, 13);
    EXPECT("{\"x\":{\"a\":1,\"b\":{},\"a\":2}}", NNH_JSON_DUPLICATE_FIELD);
    EXPECT("[{\"a\":1},{\"a\":2}]", NNH_JSON_OK);
    EXPECT("{\"a\":{\"a\":{\"a\":1}}}", NNH_JSON_OK);
    EXPECT("{\"\xc3\xa9\":1,\"\xc3\xa9\":2}", NNH_JSON_DUPLICATE_FIELD);
    EXPECT("{\"\":1,\"\":2}", NNH_JSON_DUPLICATE_FIELD);

    EXPECT_AT("{\"\\u0061\":1}", NNH_JSON_ESCAPED_FIELD_NAME, 2);
    EXPECT("{\"a\\\"b\":1}", NNH_JSON_ESCAPED_FIELD_NAME);
    EXPECT("{\"\\n\":1}", NNH_JSON_ESCAPED_FIELD_NAME);
    EXPECT("{\"ok\":1,\"x\\/y\":2}", NNH_JSON_ESCAPED_FIELD_NAME);
    EXPECT("{\"\\u0000\":1}", NNH_JSON_ESCAPED_FIELD_NAME);
    EXPECT("{\"a\":\"\\u0061\"}", NNH_JSON_OK);  /* escapes fine in values */
}

static void test_depth(void)
{
    char s[128];
    int i, n;

    for (n = 16; n <= 17; n++) {
        for (i = 0; i < n; i++) { s[i] = '['; s[2 * n - 1 - i] = ']'; }
        s[2 * n] = '\0';
        EXPECT(s, n == 16 ? NNH_JSON_OK : NNH_JSON_TOO_DEEP);
    }
    EXPECT_AT("[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]", NNH_JSON_TOO_DEEP, 16);
    s[0] = '\0';
    for (i = 0; i < 16; i++) strcat(s, "{\"k\":");
    strcat(s, "1}}}}}}}}}}}}}}}}");
    EXPECT(s, NNH_JSON_OK);
    s[0] = '\0';
    for (i = 0; i < 8; i++) strcat(s, "{\"k\":[");
    strcat(s, "{}]}]}]}]}]}]}]}]}");
    EXPECT(s, NNH_JSON_TOO_DEEP);
}

static void test_large(void)
{
    static char s[NNH_JSON_MAX_INPUT + 16];
    int i;
    size_t n;

    memset(s, ' ', sizeof s);
    s[0] = '1';
    EXPECT_N(s, NNH_JSON_MAX_INPUT, NNH_JSON_OK);
    EXPECT_N(s, NNH_JSON_MAX_INPUT + 1, NNH_JSON_TOO_LARGE);
    CHECK(doc.error_offset == NNH_JSON_MAX_INPUT, "tooLarge offset");

    /* Exactly the node cap: one array plus 511 elements. */
    n = 0;
    s[n++] = '[';
    for (i = 0; i < NNH_JSON_MAX_NODES - 1; i++) { s[n++] = '0'; s[n++] = ','; }
    s[n - 1] = ']';
    EXPECT_N(s, n, NNH_JSON_OK);
    CHECK(doc.node_count == NNH_JSON_MAX_NODES && doc.nodes[0].child_count == 511, "512 nodes");
    s[n - 1] = ',';
    s[n++] = '0';
    s[n++] = ']';
    EXPECT_N(s, n, NNH_JSON_TOO_LARGE);

    /* Max-size string: arena copes with the biggest possible decoded text. */
    s[0] = '"';
    memset(s + 1, 'x', NNH_JSON_MAX_INPUT - 2);
    s[NNH_JSON_MAX_INPUT - 1] = '"';
    EXPECT_N(s, NNH_JSON_MAX_INPUT, NNH_JSON_OK);
    CHECK(doc.nodes[0].str_len == NNH_JSON_MAX_INPUT - 2, "4094-byte string");
}

static void test_numbers(void)
{
    static char s[NNH_JSON_MAX_INPUT];

    EXPECT_INT("0", 0);
    EXPECT_INT("-0", 0);
    EXPECT_INT("42", 42);
    EXPECT_INT("-42", -42);
    EXPECT_INT("9007199254740991", 9007199254740991LL);
    EXPECT_INT("-9007199254740991", -9007199254740991LL);
    EXPECT_INT("4294967296", 4294967296LL);
    EXPECT("9007199254740992", NNH_JSON_NUMBER_OUT_OF_RANGE);
    EXPECT("-9007199254740992", NNH_JSON_NUMBER_OUT_OF_RANGE);
    EXPECT_AT("[1,123456789012345678901234567890]", NNH_JSON_NUMBER_OUT_OF_RANGE, 3);
    EXPECT("99999999999999999999999999999999999999999999999999", NNH_JSON_NUMBER_OUT_OF_RANGE);
    EXPECT("1e400", NNH_JSON_NUMBER_OUT_OF_RANGE);
    EXPECT("-1e400", NNH_JSON_NUMBER_OUT_OF_RANGE);
    EXPECT_DBL("1.5", 1.5);
    EXPECT_DBL("-0.25", -0.25);
    EXPECT_DBL("1e3", 1000.0);
    EXPECT_DBL("1E+3", 1000.0);
    EXPECT_DBL("25e-2", 0.25);
    EXPECT_DBL("1.0", 1.0);
    EXPECT_DBL("0.0", 0.0);
    EXPECT_DBL("1e-400", 0.0);  /* underflow is harmless */
    EXPECT_DBL("9007199254740993.0", 9007199254740992.0);  /* non-integer: no range error */
    EXPECT_DBL("12345678901234567890e0", 12345678901234567890.0);
    EXPECT_DBL("1.7976931348623157e308", 1.7976931348623157e308);

    /* A 4000-digit fraction must not overflow any scratch buffer. */
    memset(s, '0', sizeof s);
    s[1] = '.';
    s[3999] = '5';
    EXPECT_N(s, 4000, NNH_JSON_OK);
    CHECK(doc.nodes[0].kind == NNH_JSON_NUMBER && !doc.nodes[0].is_integer, "long fraction");
}

static void test_status_codes(void)
{
    CHECK(strcmp(nnh_json_status_code(NNH_JSON_OK), "ok") == 0, "ok");
    CHECK(strcmp(nnh_json_status_code(NNH_JSON_MALFORMED), "malformedJson") == 0, "malformedJson");
    CHECK(strcmp(nnh_json_status_code(NNH_JSON_INVALID_UTF8), "invalidUtf8") == 0, "invalidUtf8");
    CHECK(strcmp(nnh_json_status_code(NNH_JSON_NUL_BYTE), "nulByte") == 0, "nulByte");
    CHECK(strcmp(nnh_json_status_code(NNH_JSON_DUPLICATE_FIELD), "duplicateField") == 0, "duplicateField");
    CHECK(strcmp(nnh_json_status_code(NNH_JSON_ESCAPED_FIELD_NAME), "escapedFieldName") == 0, "escapedFieldName");
    CHECK(strcmp(nnh_json_status_code(NNH_JSON_TOO_DEEP), "tooDeep") == 0, "tooDeep");
    CHECK(strcmp(nnh_json_status_code(NNH_JSON_TOO_LARGE), "tooLarge") == 0, "tooLarge");
    CHECK(strcmp(nnh_json_status_code(NNH_JSON_NUMBER_OUT_OF_RANGE), "numberOutOfRange") == 0, "numberOutOfRange");
    CHECK(strcmp(nnh_json_status_code(-1), "unknownError") == 0, "unknown -1");
    CHECK(strcmp(nnh_json_status_code(99), "unknownError") == 0, "unknown 99");
}

/* Writes s[0..n) with nnh_buf_jstrn and compares the exact output. */
static void expect_jstr(const char *s, size_t n, const char *want, int line)
{
    nnh_buf b;
    int ok;

    nnh_buf_init(&b);
    nnh_buf_jstrn(&b, s, n);
    ok = !b.oom && b.len == strlen(want) && memcmp(b.data, want, b.len) == 0 &&
         b.data[b.len] == '\0';
    if (ok) passed++;
    else { failed++; printf("FAIL line %d: jstr got [%s] want [%s]\n", line, b.data ? b.data : "(null)", want); }
    nnh_buf_free(&b);
}
#define EXPECT_JSTR(s, want) expect_jstr(s, sizeof(s) - 1, want, __LINE__)

static void test_writer(void)
{
    nnh_buf b;
    size_t cap, i;
    const char *chunk = "0123456789\"\n\xc3\xa9\xff";

    EXPECT_JSTR("", "\"\"");
    EXPECT_JSTR("plain text", "\"plain text\"");
    EXPECT_JSTR("a\"b\\c", "\"a\\\"b\\\\c\"");
    EXPECT_JSTR("\n\t\r\b\f", "\"\\n\\t\\r\\b\\f\"");
    EXPECT_JSTR("\x01\x1f\x7f/", "\"\\u0001\\u001f\x7f/\"");
    EXPECT_JSTR("a\0b", "\"a\\u0000b\"");
    EXPECT_JSTR("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf",
                "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf\"");
    EXPECT_JSTR("a\xff" "b", "\"a\xef\xbf\xbd" "b\"");
    EXPECT_JSTR("\x80", "\"\xef\xbf\xbd\"");
    EXPECT_JSTR("\xc0\x80", "\"\xef\xbf\xbd\xef\xbf\xbd\"");          /* overlong */
    EXPECT_JSTR("\xed\xa0\x80", "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"");  /* surrogate */
    EXPECT_JSTR("\xf4\x90\x80\x80", "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"");
    EXPECT_JSTR("x\xe2\x82", "\"x\xef\xbf\xbd\xef\xbf\xbd\"");        /* truncated at end */
    EXPECT_JSTR("\xe2\x82\"", "\"\xef\xbf\xbd\xef\xbf\xbd\\\"\"");

    /* Writer output of arbitrary bytes must always be accepted by the reader. */
    {
        char all[256];
        for (i = 0; i < 256; i++) all[i] = (char)(255 - i);
        nnh_buf_init(&b);
        nnh_buf_jstrn(&b, all, sizeof all);
        CHECK(!b.oom && b.len <= NNH_JSON_MAX_INPUT, "all bytes written");
        CHECK(nnh_json_parse(&doc, b.data, b.len) == NNH_JSON_CONTROL_CHARACTER,
              "\\u0000 round trip is controlCharacter");
        nnh_buf_reset(&b);
        nnh_buf_jstrn(&b, all, sizeof all - 1);  /* drop the NUL */
        CHECK(nnh_json_parse(&doc, b.data, b.len) == NNH_JSON_OK, "all bytes round trip");
        CHECK(doc.nodes[0].str_len > 0 && (unsigned char)doc.nodes[0].str[0] == 0xEF, "first is U+FFFD");
        nnh_buf_free(&b);
    }

    nnh_buf_init(&b);
    CHECK(b.data == NULL && b.len == 0 && b.cap == 0 && !b.oom, "init");
    nnh_buf_char(&b, '{');
    nnh_buf_key(&b, "k");  /* a member name: the driver's own, written as it is */
    nnh_buf_int(&b, -123);
    nnh_buf_char(&b, ',');
    nnh_buf_key(&b, "min");
    nnh_buf_int(&b, LLONG_MIN);
    nnh_buf_cstr(&b, ",\"max\":");
    nnh_buf_int(&b, LLONG_MAX);
    nnh_buf_raw(&b, ",\"z\":0}xyz", 7);
    CHECK(strcmp(b.data, "{\"k\":-123,\"min\":-9223372036854775808,"
                         "\"max\":9223372036854775807,\"z\":0}") == 0, "composed object");
    CHECK(b.len == strlen(b.data), "len matches NUL");
    nnh_buf_reset(&b);
    nnh_buf_int(&b, 0);
    CHECK(strcmp(b.data, "0") == 0 && b.len == 1, "int 0 after reset");

    /* Growth past 1 MiB with mixed content; verify every chunk. */
    nnh_buf_reset(&b);
    for (i = 0; i < 100000; i++) nnh_buf_jstr(&b, chunk);
    {
        const char *want = "\"0123456789\\\"\\n\xc3\xa9\xef\xbf\xbd\"";
        size_t wl = strlen(want), bad = 0;
        CHECK(!b.oom && b.len == 100000 * wl && b.len > (1u << 20), "grew past 1 MiB");
        for (i = 0; i < 100000; i++)
            if (memcmp(b.data + i * wl, want, wl) != 0) bad++;
        CHECK(bad == 0, "all chunks intact");
        CHECK(b.data[b.len] == '\0', "NUL after growth");
    }
    cap = b.cap;
    nnh_buf_reset(&b);
    CHECK(b.len == 0 && b.cap == cap && b.data[0] == '\0', "reset keeps capacity");
    {
        /* One huge string in a single call. */
        size_t n = 3u << 20;
        char *big = (char *)malloc(n);
        CHECK(big != NULL, "malloc big");
        if (big) {
            memset(big, '\n', n);
            nnh_buf_jstrn(&b, big, n);
            CHECK(!b.oom && b.len == 2 * n + 2 && b.data[1] == '\\' && b.data[2 * n] == 'n',
                  "3 MiB of escapes");
            free(big);
        }
    }

    /* oom is sticky: writes are ignored until reset. */
    nnh_buf_reset(&b);
    nnh_buf_cstr(&b, "ab");
    b.oom = 1;
    nnh_buf_cstr(&b, "cd");
    nnh_buf_jstr(&b, "x");
    nnh_buf_int(&b, 5);
    nnh_buf_char(&b, 'z');
    CHECK(b.len == 2 && strcmp(b.data, "ab") == 0, "writes ignored after oom");
    nnh_buf_reset(&b);
    CHECK(!b.oom, "reset clears oom");
    nnh_buf_free(&b);
    CHECK(b.data == NULL && b.cap == 0 && b.len == 0, "free");
    nnh_buf_free(&b);  /* double free of an emptied buffer is harmless */
}

int main(void)
{
    test_happy();
    test_strings();
    test_malformed();
    test_nul();
    test_utf8();
    test_keys();
    test_depth();
    test_large();
    test_numbers();
    test_status_codes();
    test_writer();
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
