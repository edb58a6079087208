/* port_window.h - the window port NetHack draws through (port_window.c). */
#ifndef PORT_WINDOW_H
#define PORT_WINDOW_H

extern struct window_procs nnh_procs;

#endif
