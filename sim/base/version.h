/* SPDX-License-Identifier: GPL-2.0-only */
/* version.h - idlesim's version, printed by --version and recorded in every report. */
#ifndef IDLESIM_VERSION_H
#define IDLESIM_VERSION_H

#define IDLESIM_VERSION "0.1.0"

#endif
