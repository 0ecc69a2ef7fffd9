// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * One rtnetlink request per call, answered by the kernel's ack: a message of at most a page
 * built in place, attributes appended one after another, nested ones closed by writing their
 * length once their content is in.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/socket.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>

#include "veth.h"

#define RTNL_BUF	4096

struct rtnl_req {
	struct nlmsghdr *h;
	char buf[RTNL_BUF] __attribute__((aligned(NLMSG_ALIGNTO)));
};

static struct rtattr *rtnl_put(struct rtnl_req *r, unsigned short type, const void *data,
			       size_t len)
{
	struct rtattr *a = (struct rtattr *)(r->buf + NLMSG_ALIGN(r->h->nlmsg_len));

	if (NLMSG_ALIGN(r->h->nlmsg_len) + RTA_SPACE(len) > sizeof(r->buf))
		return NULL;
	a->rta_type = type;
	a->rta_len = (unsigned short)RTA_LENGTH(len);
	if (len)
		memcpy(RTA_DATA(a), data, len);
	r->h->nlmsg_len = NLMSG_ALIGN(r->h->nlmsg_len) + RTA_SPACE(len);
	return a;
}

/* Close a nested attribute opened by rtnl_put(r, type, NULL, 0). */
static void rtnl_end(struct rtnl_req *r, struct rtattr *nest)
{
	nest->rta_len = (unsigned short)(r->buf + r->h->nlmsg_len - (char *)nest);
}

static struct ifinfomsg *rtnl_begin(struct rtnl_req *r, unsigned short type, unsigned short flags)
{
	memset(r->buf, 0, sizeof(r->buf));
	r->h = (struct nlmsghdr *)r->buf;
	r->h->nlmsg_len = NLMSG_LENGTH(sizeof(struct ifinfomsg));
	r->h->nlmsg_type = type;
	r->h->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	r->h->nlmsg_seq = 1;
	return NLMSG_DATA(r->h);
}

/* Send the request, read the ack: 0, or the kernel's negative errno. */
static int rtnl_talk(struct rtnl_req *r)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	char ack[RTNL_BUF] __attribute__((aligned(NLMSG_ALIGNTO)));
	struct nlmsghdr *h = (struct nlmsghdr *)ack;
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE), err;
	ssize_t n;

	if (fd < 0)
		return -errno;
	if (sendto(fd, r->buf, r->h->nlmsg_len, 0, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		err = -errno;
		close(fd);
		return err;
	}
	n = recv(fd, ack, sizeof(ack), 0);
	err = n < 0 ? -errno : -EPROTO;
	if (n >= (ssize_t)NLMSG_LENGTH(sizeof(struct nlmsgerr)) && h->nlmsg_type == NLMSG_ERROR)
		err = ((struct nlmsgerr *)NLMSG_DATA(h))->error;
	close(fd);
	return err;
}

int mb_veth_add(const char *name, const char *peer)
{
	struct rtnl_req r;
	struct rtattr *info, *data, *pe;
	struct ifinfomsg peer_ifi = { .ifi_family = AF_UNSPEC };

	if (strlen(name) >= IFNAMSIZ || strlen(peer) >= IFNAMSIZ)
		return -ENAMETOOLONG;
	rtnl_begin(&r, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL);
	if (!rtnl_put(&r, IFLA_IFNAME, name, strlen(name) + 1) ||
	    !(info = rtnl_put(&r, IFLA_LINKINFO, NULL, 0)) ||
	    !rtnl_put(&r, IFLA_INFO_KIND, "veth", 5) ||
	    !(data = rtnl_put(&r, IFLA_INFO_DATA, NULL, 0)) ||
	    !(pe = rtnl_put(&r, VETH_INFO_PEER, &peer_ifi, sizeof(peer_ifi))) ||
	    !rtnl_put(&r, IFLA_IFNAME, peer, strlen(peer) + 1))
		return -ENOSPC;
	rtnl_end(&r, pe);
	rtnl_end(&r, data);
	rtnl_end(&r, info);
	return rtnl_talk(&r);
}

int mb_link_set_up(int ifindex)
{
	struct rtnl_req r;
	struct ifinfomsg *ifi = rtnl_begin(&r, RTM_NEWLINK, 0);

	ifi->ifi_index = ifindex;
	ifi->ifi_flags = IFF_UP;
	ifi->ifi_change = IFF_UP;
	return rtnl_talk(&r);
}

int mb_link_del(int ifindex)
{
	struct rtnl_req r;
	struct ifinfomsg *ifi = rtnl_begin(&r, RTM_DELLINK, 0);

	ifi->ifi_index = ifindex;
	return rtnl_talk(&r);
}
