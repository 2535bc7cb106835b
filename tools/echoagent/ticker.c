/*
 * ticker: the floor of the background-CPU figure. Once a second, on the
 * second, it reads the /proc files that pmdahostcache's one-second
 * collectors read (kept open, re-read from offset 0) and parses nothing.
 * Whatever this costs per second is what waking up and having the kernel
 * produce those files costs any sampler on this machine.
 *
 *   ticker [proc-root]
 */
#include <fcntl.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static const char *files[] = {"stat", "meminfo", "loadavg", "uptime", "diskstats", "net/dev"};
enum { NFILES = sizeof files / sizeof files[0] };

int main(int argc, char **argv)
{
	const char *root = argc > 1 ? argv[1] : "/proc";
	static char buf[1 << 20];
	int fd[NFILES];
	for (int i = 0; i < NFILES; i++) {
		char path[4096];
		snprintf(path, sizeof path, "%s/%s", root, files[i]);
		fd[i] = open(path, O_RDONLY | O_CLOEXEC);
	}
	for (;;) {
		struct timespec now;
		clock_gettime(CLOCK_REALTIME, &now);
		struct timespec next = {now.tv_sec + 1, 0};
		clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &next, NULL);
		for (int i = 0; i < NFILES; i++) {
			if (fd[i] < 0)
				continue;
			off_t off = 0;
			ssize_t n;
			while ((n = pread(fd[i], buf, sizeof buf, off)) > 0)
				off += n;
		}
	}
}
