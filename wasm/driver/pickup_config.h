/* pickup_config.h - automatic ground pickup: the settings game.configurePickup
 * replaces and observation.automaticPickup reports (pickup_config.c). */
#ifndef PICKUP_CONFIG_H
#define PICKUP_CONFIG_H

#include "json_write.h"
#include "proto_request.h"

#include "nnh_vocabulary.h" /* the item type names */

/* The settings before any configuration: off, with gold and arrows ready
 * to enable and corpses and known-cursed items left. Applied once, after
 * NetHack reads its options and before the game starts. Can't fail. */
void nnh_pickup_defaults(void);

/* Replace the whole configuration from a validated game.configurePickup
 * request: NetHack's autopickup flag, pickup_types and autopickup
 * exceptions. Spends no turn. Can't fail. */
void nnh_pickup_configure(const nnh_request *req);

/* The same from a validated settings object `obj` of `doc` (session.create's
 * automaticPickup, applied before the game starts). */
void nnh_pickup_configure_from(const nnh_json_doc *doc, int obj);

/* Write the active settings as the automaticPickup object. */
void nnh_pickup_write(nnh_buf *b);

#endif
