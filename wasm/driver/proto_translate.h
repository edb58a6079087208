/* proto_translate.h - validated requests to keys and pending answers
 * (proto_translate.c). */
#ifndef PROTO_TRANSLATE_H
#define PROTO_TRANSLATE_H

#include "proto_command.h"

/* A gameplay request: resolve its item and direction, then run its row of
 * the command table. 0, or -1 with *why set (nothing queued). */
int nnh_translate_command(const nnh_request *req, nnh_rejection *why);

/* 1 when the method is a step or a wait: its outcome is "blocked" when it
 * spent no turn and left the hero where it was. */
int nnh_method_moves(const nnh_method *method);

/* decision.answer and decision.cancel. */
int nnh_translate_answer(const nnh_request *req, nnh_rejection *why);
void nnh_translate_cancel(void);

#endif
