/* request_fuzzer.c - libFuzzer harness over the request reader and validator.
 *
 * Each input is one request frame, exactly as the boundary hands it to
 * nnh_request_parse() (json_read.c + proto_request.c): any bytes, any
 * length. Built with clang -fsanitize=fuzzer,address,undefined by
 * scripts/fuzz and tests/fuzz/test_fuzz.py. Besides memory safety, every
 * input must end in exactly one of two documented states, checked here:
 *
 *   accepted  a method from the table, no error code, a frame within
 *             the size limit, and parameter accessors that read safely;
 *   rejected  a non-empty error code and message, with the echoed field
 *             name and the message valid UTF-8 (never a character cut in
 *             half).
 *
 * A frame over the size limit is always rejected as tooLarge, whatever it
 * holds (the documented precedence). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "json_read.h"
#include "proto_request.h"
#include "utf8.h"

static nnh_json_doc doc;

static void check(int ok)
{
    if (!ok) abort(); /* libFuzzer reports the input that broke an invariant */
}

static int valid_utf8(const char *s)
{
    size_t n = strlen(s), i = 0, k;
    while (i < n) {
        if ((k = nnh_utf8_seq_len((const unsigned char *) s + i, n - i)) == 0) return 0;
        i += k;
    }
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    nnh_request req;
    char *frame;
    int rc, len = size > (size_t) (NNH_JSON_MAX_INPUT * 2) ? NNH_JSON_MAX_INPUT * 2 : (int) size;

    /* an exact-size heap copy, so a read past the frame is an ASan report */
    frame = malloc((size_t) len ? (size_t) len : 1);
    if (!frame) return 0;
    memcpy(frame, data, (size_t) len);
    rc = nnh_request_parse(&req, &doc, frame, len);
    if (rc == 0) {
        int count, i;
        const nnh_method *methods = nnh_methods(&count);
        check(req.method != NULL && req.code[0] == 0);
        check(req.method >= methods && req.method < methods + count);
        check(len <= NNH_JSON_MAX_INPUT);
        /* the accessors read what validation accepted */
        (void) nnh_param_str(&req, "sessionId");
        (void) nnh_param_int(&req, "expectedRevision", -1);
        (void) nnh_param_bool(&req, "quiet", 0);
        for (i = 0; i < 3; i++) (void) nnh_param_node(&req, i ? "answer" : "itemId");
    } else {
        check(rc == -1);
        check(req.code[0] != 0 && req.message[0] != 0);
        check(valid_utf8(req.field) && valid_utf8(req.message));
        if (len > NNH_JSON_MAX_INPUT) check(!strcmp(req.code, "tooLarge"));
    }
    free(frame);
    return 0;
}
