// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * local-storage-tasks-trace's sleepers: --nr_procs processes that do nothing but sleep 0 to 3
 * seconds and call getpgid(), as the kernel's bench forks them. Each getpgid() runs the
 * storage program in the sleeper (the trigger runner lets our children fire it), and each
 * sleeper is one more task that every RCU Tasks Trace grace period has to look at.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "ls_trace.h"
#include "sys/meminfo.h"

/*
 * The sleeper's life, in the child of a threaded process: raw system calls only (no lock that
 * another thread of the parent may have held at the fork), and never a return.
 */
static void __attribute__((noreturn)) sleeper(pid_t parent, uint64_t arg)
{
	uint32_t x = (uint32_t)getpid() * 2654435761u | 1;

	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
		_exit(1);	/* the parent died before the line above: nothing to wait for */
	prctl(PR_SET_NAME, LS_TRACE_SLEEPER_COMM, 0, 0, 0);
	/* mapbench's handlers only set a flag: a sleeper told to stop stops. */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	for (;;) {
		struct timespec ts = { 0 };

		/* xorshift32: the kernel's rand() % 4, without rand()'s lock */
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		ts.tv_sec = x % 4;
		nanosleep(&ts, NULL);
		syscall(SYS_getpgid, arg);
	}
}

/* Whether MemAvailable is still above @floor (where it cannot be read: yes, the fork decides). */
static bool mem_left(struct ls_trace_procs *p, uint64_t floor)
{
	uint64_t avail;

	if (!floor || mb_mem_available(&avail))
		return true;
	if (!p->nr)
		p->avail0 = avail;
	p->avail = avail;
	return avail >= floor;
}

int ls_trace_procs_spawn(struct ls_trace_procs *p, uint32_t nr, uint64_t arg, uint64_t floor)
{
	pid_t parent = getpid();

	p->nr = 0;
	p->made = 0;
	p->pid = calloc(nr, sizeof(*p->pid));
	if (!p->pid)
		return -ENOMEM;
	for (uint32_t i = 0; i < nr; i++) {
		pid_t pid;

		if (!(i % LS_TRACE_MEM_EVERY) && !mem_left(p, floor)) {
			p->made = i;
			ls_trace_procs_reap(p);
			return -ENOMEM;
		}
		pid = fork();
		if (pid < 0) {
			int err = -errno;

			p->made = i;
			ls_trace_procs_reap(p);
			return err;
		}
		if (!pid)
			sleeper(parent, arg);
		p->pid[p->nr++] = pid;
	}
	return 0;
}

void ls_trace_procs_reap(struct ls_trace_procs *p)
{
	for (uint32_t i = 0; i < p->nr; i++)
		kill(p->pid[i], SIGKILL);
	for (uint32_t i = 0; i < p->nr; i++)
		while (waitpid(p->pid[i], NULL, 0) < 0 && errno == EINTR)
			;
	free(p->pid);
	p->pid = NULL;
	p->nr = 0;
}

uint64_t ls_trace_procs_room(uint64_t pid_max, uint64_t threads_max, uint64_t tasks)
{
	uint64_t lim = pid_max < threads_max ? pid_max : threads_max;

	return lim > tasks + LS_TRACE_TASK_RESERVE ? lim - tasks - LS_TRACE_TASK_RESERVE : 0;
}

/* The number @fmt scans from file @path. */
static int read_u64(const char *path, const char *fmt, uint64_t *v)
{
	FILE *f = fopen(path, "re");
	int n;

	if (!f)
		return -errno;
	n = fscanf(f, fmt, v);
	fclose(f);
	return n == 1 ? 0 : -EINVAL;
}

int ls_trace_procs_limit(uint64_t *room, char *why, size_t len)
{
	uint64_t pid_max, threads_max, tasks;
	int err;

	err = read_u64("/proc/sys/kernel/pid_max", "%" SCNu64, &pid_max);
	if (!err)
		err = read_u64("/proc/sys/kernel/threads-max", "%" SCNu64, &threads_max);
	/* /proc/loadavg: "0.10 0.20 0.30 RUNNING/TASKS LASTPID" */
	if (!err)
		err = read_u64("/proc/loadavg", "%*s %*s %*s %*u/%" SCNu64, &tasks);
	if (err)
		return err;
	*room = ls_trace_procs_room(pid_max, threads_max, tasks);
	snprintf(why, len, "kernel.pid_max %" PRIu64 ", kernel.threads-max %" PRIu64 ", %" PRIu64 " tasks running, %d kept free",
		 pid_max, threads_max, tasks, LS_TRACE_TASK_RESERVE);
	return 0;
}
