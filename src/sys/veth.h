/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Network devices by rtnetlink, in the namespace of the calling thread (sys/netns.h moves a
 * thread into a namespace of the run's own, where a device made is removed with it): a veth
 * pair, a device set up, a device removed.
 */
#ifndef MB_SYS_VETH_H
#define MB_SYS_VETH_H

/* A veth pair named @name and @peer (at most 15 characters each). 0 or a negative errno. */
int mb_veth_add(const char *name, const char *peer);
/* Set the device @ifindex up. 0 or a negative errno. */
int mb_link_set_up(int ifindex);
/* Remove the device @ifindex (a veth takes its peer with it). 0 or a negative errno. */
int mb_link_del(int ifindex);

#endif
