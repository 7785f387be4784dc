// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * -D and --control: the recorder's events turned on and off while it
 * runs, as perf record's --delay and --control do.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <linux/perf_event.h>

#include "opts.h"
#include "record-int.h"

/*
 * --control fifo:CTL[,ACK]: both opened read-write, so that neither waits
 * for the other end, nor sees an end of file when a writer closes it.
 * 0, or -1 having said why.
 */
int rec_control_open(struct recorder *rc)
{
	char ctl[PATH_MAX], *comma;
	struct stat st;

	snprintf(ctl, sizeof(ctl), "%s", rc->o.control);
	comma = strchr(ctl, ',');
	if (comma)
		*comma++ = '\0';
	for (int k = 0; k < 1 + (comma != NULL); k++) {
		const char *path = k ? comma : ctl;
		int fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);

		if (fd < 0 || fstat(fd, &st) || !S_ISFIFO(st.st_mode)) {
			fprintf(stderr, "prof: --control: %s is not a FIFO%s%s; make it with mkfifo\n",
				path, fd < 0 ? ": " : "", fd < 0 ? strerror(errno) : "");
			if (fd >= 0)
				close(fd);
			return -1;
		}
		*(k ? &rc->ack_fd : &rc->ctl_fd) = fd;
	}
	return 0;
}

/* Every event on (-D's delay over, --control's enable) or off. */
void rec_enable_all(struct recorder *rc, int on)
{
	for (size_t i = 0; i < rc->nr_fds; i++)
		ioctl(rc->fds[i], on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0);
}

/*
 * --control: the commands that came on its FIFO, a line each (perf's):
 * enable, disable, ping, stop; each answered "ack" on the ACK FIFO.
 * 1 when one said stop.
 */
int rec_control(struct recorder *rc)
{
	ssize_t n;
	int stop = 0;

	while ((n = read(rc->ctl_fd, rc->ctl_buf + rc->ctl_len,
			 sizeof(rc->ctl_buf) - 1 - rc->ctl_len)) > 0) {
		char *line = rc->ctl_buf, *nl;

		rc->ctl_len += (size_t)n;
		rc->ctl_buf[rc->ctl_len] = '\0';
		while ((nl = memchr(line, '\n', rc->ctl_len - (size_t)(line - rc->ctl_buf)))) {
			*nl = '\0';
			if (!strcmp(line, "enable")) {
				rec_enable_all(rc, 1);
				rc->enable_at = 0;
			} else if (!strcmp(line, "disable")) {
				rec_enable_all(rc, 0);
				rc->enable_at = 0;
			} else if (!strcmp(line, "stop")) {
				stop = 1;
			} else if (strcmp(line, "ping") && line[0]) {
				fprintf(stderr, "prof: --control: unknown command '%.64s'; the commands "
					"are enable, disable, ping and stop\n", line);
			}
			if (rc->ack_fd >= 0 && line[0] && write(rc->ack_fd, "ack\n", 4) != 4)
				fprintf(stderr, "prof: --control: cannot answer on the ACK FIFO: %s\n",
					strerror(errno));
			line = nl + 1;
		}
		rc->ctl_len -= (size_t)(line - rc->ctl_buf);
		memmove(rc->ctl_buf, line, rc->ctl_len);
		if (rc->ctl_len == sizeof(rc->ctl_buf) - 1)
			rc->ctl_len = 0;	/* a line too long for any command */
	}
	return stop;
}

