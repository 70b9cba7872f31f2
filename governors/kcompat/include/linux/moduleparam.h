/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * idlesim kernel-compatibility layer: include/linux/moduleparam.h.
 *
 * module_param(name, type, perm) declares a sysfs knob for a variable the file defines and
 * initialises itself (haltpoll.c's guest_halt_poll_ns and friends). idlesim has no sysfs: a
 * kernel file's parameters keep the values the file gives them, so module_param() only checks
 * that the variable exists and has the type named (uint, int, bool, ...), as the kernel's
 * param_check_<type>() does at compile time. The ports take the same values as tunables
 * (--set FAMILY.NAME=V; see idlesim/gov.h).
 */
#ifndef _IDLESIM_LINUX_MODULEPARAM_H
#define _IDLESIM_LINUX_MODULEPARAM_H

#include <linux/types.h>

typedef unsigned int idlesim_param_uint;
typedef int idlesim_param_int;
typedef unsigned long idlesim_param_ulong;
typedef long idlesim_param_long;
typedef unsigned short idlesim_param_ushort;
typedef short idlesim_param_short;
typedef bool idlesim_param_bool;
typedef unsigned char idlesim_param_byte;

#define module_param(name, type, perm)                                                             \
	static idlesim_param_##type *const __idlesim_param_##name __attribute__((unused)) = &(name)
#define module_param_named(name, value, type, perm) module_param(value, type, perm)
#define MODULE_PARM_DESC(name, desc)

#endif
