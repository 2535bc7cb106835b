/*
 * ticker: the C floor of the background-CPU figures. It follows a reading
 * plan, lines of "<interval in ms> <path>" (make bench takes it from the
 * files pmdahostcache's collectors keep open, at their intervals), wakes
 * half a second past each second as the agent's sampling grid does, and
 * re-reads the files due from kept fds, parsing nothing. A path written
 * "statfs:<path>" is statfs'd instead of read: a filesystem's figures come
 * from that call, not from a file. Whatever this costs per second is what
 * waking up and having the kernel produce those files costs any sampler
 * on this machine.
 *
 *   ticker plan-file
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/vfs.h>
#include <unistd.h>

struct kept {
	long every; /* seconds */
	int fd;     /* -1: statfs path */
	char *path; /* statfs only */
};

static struct kept *load(const char *file, int *n)
{
	FILE *f = fopen(file, "r");
	if (f == NULL) {
		perror(file);
		exit(2);
	}
	struct kept *k = NULL;
	int cap = 0;
	long ms;
	char path[4096];
	*n = 0;
	while (fscanf(f, "%ld %4095s", &ms, path) == 2) {
		if (ms < 1000) {
			fprintf(stderr, "%s: interval under a second\n", file);
			exit(2);
		}
		char *fs = NULL;
		int fd = -1;
		if (strncmp(path, "statfs:", 7) == 0) {
			if ((fs = strdup(path + 7)) == NULL)
				exit(2);
		} else if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
			continue;
		}
		if (*n == cap) {
			cap = cap ? 2 * cap : 64;
			k = realloc(k, cap * sizeof *k);
			if (k == NULL)
				exit(2);
		}
		k[*n].every = ms / 1000;
		k[*n].fd = fd;
		k[*n].path = fs;
		(*n)++;
	}
	fclose(f);
	return k;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: ticker plan-file\n");
		return 2;
	}
	int n;
	struct kept *files = load(argv[1], &n);
	static char buf[1 << 20];
	for (;;) {
		struct timespec now;
		clock_gettime(CLOCK_REALTIME, &now);
		struct timespec next = {now.tv_sec, 500000000L};
		if (now.tv_nsec >= 500000000L)
			next.tv_sec++;
		clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &next, NULL);
		for (int i = 0; i < n; i++) {
			if (next.tv_sec % files[i].every != 0)
				continue;
			if (files[i].fd < 0) {
				struct statfs st;
				statfs(files[i].path, &st);
				continue;
			}
			off_t off = 0;
			ssize_t got;
			while ((got = pread(files[i].fd, buf, sizeof buf, off)) > 0)
				off += got;
		}
	}
}
