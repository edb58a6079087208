/* nnh_nethack.h - NetHack names the driver shares that NetHack's own headers
 * leave undeclared in this configuration (include after hack.h).
 *
 * NetHack declares these only for other ports (extern.h's UNIX/MICRO
 * sections) or not at all (botl.c's tables, dungeon.c's overview chain);
 * declaring them once here keeps every use and definition checked against
 * one prototype. */
#ifndef NNH_NETHACK_H
#define NNH_NETHACK_H

/* Defined by NetHack, read by the driver. */
extern const char *hu_stat[];              /* botl.c: hunger words */
extern const char *const enc_stat[];       /* botl.c: encumbrance words */
extern mapseen *mapseenchn;                /* dungeon.c: the overview's remembered levels */

/* Defined by the driver (nnh_main.c) in place of sys/unix, called by NetHack. */
unsigned long sys_random_seed(void);       /* hacklib.c init_random: the session's seed */
void port_help(void);
void append_slash(char *name);

#endif
