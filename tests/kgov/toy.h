/* SPDX-License-Identifier: GPL-2.0-only */
/* A header next to toy.c, as gov.h is next to a kernel tree's governors. */
#define TOY_RATING 7
