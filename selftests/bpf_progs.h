/* SPDX-License-Identifier: GPL-2.0 */
/* Common includes for the selftest programs. */
#ifndef __BPF_PROGS_H
#define __BPF_PROGS_H

#include <linux/bpf.h>
#include <linux/types.h>
#include <stdbool.h>
#include <bpf/bpf_helpers.h>

/* Global data in its own map (section .data.NAME), not mmapable by libbpf. */
#define private(name) SEC(".data." #name) __hidden __attribute__((aligned(8)))

/* The packet's first word, checked against data_end, or NULL when the
 * packet is shorter.
 */
static __always_inline __u32 *pkt_word(struct __sk_buff *skb)
{
	__u32 *p = (void *)(long)skb->data;

	if ((void *)(p + 1) > (void *)(long)skb->data_end)
		return NULL;
	return p;
}

#endif
