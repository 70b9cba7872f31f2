/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * init.h - process-wide set-up that must happen before idlesim parses anything.
 *
 * idlesim_main() calls idlesim_init(), and so does every program that calls the library
 * without going through the command line (the tests, the fuzz harnesses). It may be called
 * any number of times, from any thread.
 */
#ifndef IDLESIM_INIT_H
#define IDLESIM_INIT_H

void idlesim_init(void);

#endif
