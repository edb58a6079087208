/* item_query.h - carried items named by what the player perceives
 * (item_query.c). */
#ifndef ITEM_QUERY_H
#define ITEM_QUERY_H

struct obj;

/* How many carried items a perceived-name query names; with exactly one,
 * *found is it. */
int nnh_item_named(const char *query, struct obj **found);

#endif
