/* port_keys.h - the typed key queue (port_keys.c): the input a translated
 * request hands to NetHack, read by the window port's key readers. */
#ifndef PORT_KEYS_H
#define PORT_KEYS_H

/* Queued input. A key tagged for a prompt kind is consumed only by that
 * kind of prompt ("initial item/direction arguments answer only their first
 * matching selection"); untagged keys go to whatever reads next. */
enum nnh_key_for { NNH_FOR_ANY = 0, NNH_FOR_ITEM, NNH_FOR_DIRECTION,
                   NNH_FOR_HAND /* the ring-finger question: "Right or Left?" */ };

void nnh_keys_clear(void);
void nnh_keys_push(int key, enum nnh_key_for kind);
int nnh_keys_pop(enum nnh_key_for kind, int *key);
int nnh_keys_pending(void);
int nnh_keys_counting(void);

#endif
