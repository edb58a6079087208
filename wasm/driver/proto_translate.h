/* proto_translate.h - validated requests to keys and pending answers. */
#ifndef PROTO_TRANSLATE_H
#define PROTO_TRANSLATE_H

#include "proto_request.h"

/* Why a request was refused at translation; static strings. */
typedef struct {
    const char *code, *field, *message;
} nnh_rejection;

int nnh_translate_command(const nnh_request *req, nnh_rejection *why);
int nnh_translate_answer(const nnh_request *req, nnh_rejection *why);
void nnh_translate_cancel(void);

/* The index in extcmdlist of an extended command ("pray"), or -1. */
int nnh_ext_command_index(const char *name);

#endif
