/* proto_command.h - one gameplay command as the translator sees it.
 *
 * Each gameplay method has one row in the command table (proto_translate.c,
 * indexed by nnh_method_id, as Redis's command table carries each command's
 * `proc`): the function that turns the request into keys, and the columns
 * that function reads - the command key, the accessory's key, the extended
 * command typed after '#'. The translators live with the verbs they serve
 * (proto_translate.c, manual_verbs.c); this header is what they share, so
 * none of them needs another. */
#ifndef PROTO_COMMAND_H
#define PROTO_COMMAND_H

#include "proto_request.h"

/* A control key, as NetHack reads it (^D kicks). */
#define NNH_CTRL(c) (0x1f & (c))

/* Why a request was refused at translation; static strings. */
typedef struct {
    const char *code, *field, *message;
} nnh_rejection;

struct obj;
typedef struct nnh_command nnh_command;

/* A validated request with its common arguments resolved against what the
 * player sees. */
typedef struct {
    const nnh_request *req;
    const nnh_command *command; /* the method's row */
    struct obj *obj;            /* the item argument (itemId or itemName), or NULL */
    int aim;                    /* the direction's NetHack key, or 0 */
} nnh_command_args;

/* Queue the command's keys and pending answers; 0, or -1 with *why set and
 * nothing queued that the caller must keep (it clears the queue). */
typedef int (*nnh_translator)(const nnh_command_args *args, nnh_rejection *why);

struct nnh_command {
    nnh_translator translate;
    int key;                    /* NetHack command key, or 0 */
    int accessory_key;          /* equip/remove: the accessory's key (P/R) */
    const char *extended;       /* typed after '#' (#pray), or NULL */
    int movement;               /* a step or wait: "blocked" when nothing happened */
};

/* Record why a request is refused. Returns -1. */
int nnh_refuse(nnh_rejection *why, const char *code, const char *field, const char *message);

/* Type the row's extended command: '#', then the name from the pending
 * answer (the port answers the extended-command prompt with it). */
void nnh_push_extended(const nnh_command *command);

/* The index in extcmdlist of an extended command ("pray"), or -1. */
int nnh_ext_command_index(const char *name);

#endif
