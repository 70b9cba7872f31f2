/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * idlesim kernel-compatibility layer: include/linux/kvm_para.h.
 *
 * A governor that registers only in a KVM guest (haltpoll.c: kvm_para_available()) is asked
 * for by name, so idlesim answers as a guest kernel would: the KVM paravirtual interface is
 * there. The hints (KVM_HINTS_REALTIME) are the driver's business, not a governor's.
 */
#ifndef _IDLESIM_LINUX_KVM_PARA_H
#define _IDLESIM_LINUX_KVM_PARA_H

#include <linux/types.h>

static inline bool kvm_para_available(void)
{
	return true;
}

#endif
