// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * xdpmaps family: an AF_XDP socket, the entry of an xskmap. The kernel takes a socket into
 * the map only once it is bound, and binds it only with a UMEM (its packet memory, with fill
 * and completion rings) and an RX ring; copy mode, so any device will do. No packet is ever
 * received: the rings are never mapped. The socket belongs to the calling thread's network
 * namespace, where the device must be.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <linux/if_xdp.h>

#include "xm.h"

#ifndef AF_XDP
#define AF_XDP		44
#endif
#ifndef SOL_XDP
#define SOL_XDP		283
#endif

#define XSK_FRAMES	16
#define XSK_FRAME	4096
#define XSK_RING	16	/* descriptors per ring: a power of two */

static int xsk_opt(int fd, int name, int n)
{
	return setsockopt(fd, SOL_XDP, name, &n, sizeof(n)) ? -errno : 0;
}

/* The UMEM and the rings bind() asks for. 0, or a negative errno with @what set. */
static int xsk_prepare(struct xm_xsk *x, const char **what)
{
	struct xdp_umem_reg mr = { .len = x->len, .chunk_size = XSK_FRAME };
	int err;

	mr.addr = (__u64)(unsigned long)x->umem;
	*what = "XDP_UMEM_REG";
	if (setsockopt(x->fd, SOL_XDP, XDP_UMEM_REG, &mr, sizeof(mr)))
		return -errno;
	*what = "XDP_UMEM_FILL_RING";
	err = xsk_opt(x->fd, XDP_UMEM_FILL_RING, XSK_RING);
	if (!err) {
		*what = "XDP_UMEM_COMPLETION_RING";
		err = xsk_opt(x->fd, XDP_UMEM_COMPLETION_RING, XSK_RING);
	}
	if (!err) {
		*what = "XDP_RX_RING";
		err = xsk_opt(x->fd, XDP_RX_RING, XSK_RING);
	}
	return err;
}

int xm_xsk_open(struct xm_xsk *x, int ifindex, char *why, size_t len)
{
	struct sockaddr_xdp sa = { .sxdp_family = AF_XDP, .sxdp_ifindex = (__u32)ifindex,
				   .sxdp_queue_id = 0, .sxdp_flags = XDP_COPY };
	const char *what = "socket(AF_XDP)";
	int err;

	x->len = XSK_FRAMES * XSK_FRAME;
	x->umem = MAP_FAILED;
	x->fd = socket(AF_XDP, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (x->fd < 0) {
		err = -errno;
		snprintf(why, len, "cannot make an AF_XDP socket: %s%s", strerror(errno),
			 errno == EAFNOSUPPORT ? " (a kernel without CONFIG_XDP_SOCKETS)" : "");
		return err;
	}
	x->umem = mmap(NULL, x->len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	err = x->umem == MAP_FAILED ? -errno : xsk_prepare(x, &what);
	if (!err) {
		what = "bind in copy mode to queue 0";
		if (bind(x->fd, (struct sockaddr *)&sa, sizeof(sa)))
			err = -errno;
	}
	if (err) {
		snprintf(why, len, "cannot ready an AF_XDP socket on ifindex %d: %s: %s", ifindex,
			 what, strerror(-err));
		xm_xsk_close(x);
	}
	return err;
}

void xm_xsk_close(struct xm_xsk *x)
{
	if (x->fd >= 0)
		close(x->fd);
	if (x->umem && x->umem != MAP_FAILED)
		munmap(x->umem, x->len);
	x->fd = -1;
	x->umem = NULL;
}
