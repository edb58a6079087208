/* nnh_knowledge.h - what the player knows beyond the map: spells and
 * skills, the dungeon overview, conduct and achievements (obs_knowledge.c),
 * and the patched NetHack functions it and the encyclopedia
 * (lore_lookup.h) read.
 *
 * The functions marked "patched" are added to NetHack's own files by
 * wasm/patches/nnh-knowledge.patch, so the values are exactly the ones
 * NetHack's menus print: the spell menu's Fail and Retention columns,
 * #enhance's markers, #overview's choice of levels, the / command's
 * typed-name lookup. */
#ifndef NNH_KNOWLEDGE_H
#define NNH_KNOWLEDGE_H

#include "json_write.h"

struct mapseen;

/* patched: spell.c, weapon.c, dungeon.c, pager.c */
int nnh_spell_failure(int idx);
char *nnh_spell_retention(int idx, char *outbuf);
const char *nnh_spell_school(int idx);
int nnh_skill_state(int skill); /* -1 restricted, 0 practice, 1 available,
                                   2 needsExperience, 3 peaked */
boolean nnh_mapseen_listed(struct mapseen *mptr);
void nnh_lore_lookup(char *name);

/* Write the knowledge object ({"spells":[...],"skills":[...],"levels":[...],
 * "conduct":{...},"achievements":[...]}). Reads only; can't fail. Returns
 * the serial of the text written (obs_reuse.h; 0: not kept). */
unsigned long nnh_knowledge_write(nnh_buf *b);

/* The index in the hero's spell list of a known spell named `name`
 * (case-insensitive, as the menu prints it), or -1. */
int nnh_spell_index(const char *name);

#endif
