/* port_doors.h - witnessed door locks, per level (port_doors.c). */
#ifndef PORT_DOORS_H
#define PORT_DOORS_H

#include "json_write.h"

void nnh_doors_write(nnh_buf *b);

#endif
