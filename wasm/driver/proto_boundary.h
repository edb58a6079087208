/* proto_boundary.h - the input boundary (proto_boundary.c).
 *
 * nnh_await_input() publishes the boundary, answers the in-flight request
 * and returns once a request supplied input; nnh_serve_forever() answers
 * requests after the game ended; nnh_wait_for_create() answers requests
 * until a session.create starts a game. The last two never return. */
#ifndef PROTO_BOUNDARY_H
#define PROTO_BOUNDARY_H

#include "nnh_vocabulary.h" /* enum nnh_boundary */

void nnh_await_input(enum nnh_boundary kind);
void nnh_serve_forever(void);
void nnh_wait_for_create(void);

#endif
