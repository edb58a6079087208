/* obs_build.h - the observation, decision and end objects of a response
 * (obs_build.c). */
#ifndef OBS_BUILD_H
#define OBS_BUILD_H

#include "json_write.h"

void nnh_obs_write(nnh_buf *b, int full_world);
void nnh_decision_write(nnh_buf *b);
void nnh_end_write(nnh_buf *b);

#endif
