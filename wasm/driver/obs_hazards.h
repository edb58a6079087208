/* obs_hazards.h - attacks on the hero, as the hero is told of them.
 *
 * wasm/patches/nnh-hazards.patch calls nnh_hook_attacked() from three
 * places in NetHack, each of which is followed by a message to the player:
 *
 *   mattacku() (mhitu.c)  an adjacent monster attacks the hero: every attack
 *                         then hits or misses with a message ("The gnome
 *                         just misses!", "It bites!");
 *   thitu() (mthrowu.c)   a missile reaches the hero's square: "You are hit
 *                         by an arrow", "A rock misses you", "You are almost
 *                         hit by a dagger" (traps that shoot use it too);
 *   m_throw() (mthrowu.c) a monster the hero can see looses a missile.
 *
 * Each becomes one typed event, {"type":"attacked","by":"melee"|"missile"|
 * "launched"}, in the operation's event stream before the message it leads
 * to, so a caller need not read the message text to know the hero was
 * attacked (legs stop on it, docs/AGENT_PLAY.md). Repeats within one
 * operation are kept: each attack is one event. */
#ifndef NNH_OBS_HAZARDS_H
#define NNH_OBS_HAZARDS_H

enum nnh_attack_kind { NNH_ATTACK_MELEE = 0, NNH_ATTACK_MISSILE, NNH_ATTACK_LAUNCHED };

void nnh_hook_attacked(int kind);

/* A new operation starts: its attack events start from none (obs_events.c). */
void nnh_hazards_reset(void);

#endif
