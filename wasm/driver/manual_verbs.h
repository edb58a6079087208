/* manual_verbs.h - the translators of the manual interactions, containers,
 * spells, skills and pickup settings (manual_verbs.c): rows of the command
 * table in proto_translate.c. Each returns 0 when queued, or -1 with *why
 * set (nothing queued) when refused. */
#ifndef MANUAL_VERBS_H
#define MANUAL_VERBS_H

#include "proto_command.h"

int nnh_translate_chat(const nnh_command_args *args, nnh_rejection *why);
/* offer, dip, rub, invoke: the extended command, then the item if given */
int nnh_translate_with_item(const nnh_command_args *args, nnh_rejection *why);
int nnh_translate_engrave(const nnh_command_args *args, nnh_rejection *why);
/* loot, force: refused when the hero sees no container here */
int nnh_translate_container(const nnh_command_args *args, nnh_rejection *why);
int nnh_translate_cast(const nnh_command_args *args, nnh_rejection *why);
/* configurePickup: no key; the next command prompt answers */
int nnh_translate_configure_pickup(const nnh_command_args *args, nnh_rejection *why);

#endif
