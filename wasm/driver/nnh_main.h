/* nnh_main.h - the game's lifecycle (nnh_main.c): start-up and end.
 *
 * main() initialises the driver state and waits for a session.create
 * (nnh_wait_for_create, proto_boundary.c); nnh_start_game() starts NetHack
 * for it; NetHack's own end (nh_terminate) comes back through
 * nnh_hook_terminate, and the driver keeps answering until its input ends. */
#ifndef NNH_MAIN_H
#define NNH_MAIN_H

#include "proto_request.h"

/* Start NetHack for a validated session.create. Returns -1, after writing a
 * typed error and with nothing started, when the explicit character
 * choices are incompatible; otherwise it never returns. */
int nnh_start_game(const nnh_request *req);

#endif
