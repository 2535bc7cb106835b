/*
 * fetchloop: time pmFetch through pmcd, from one or more client processes.
 *
 *   fetchloop [-n fetches-per-client] [-c clients] [-w warmup] metric ...
 *
 * Each client opens its own context to local pmcd, looks the metrics up,
 * fetches them n times and records each pmFetch's wall time (monotonic).
 * The parent reports, as key=value pairs on one line:
 *   clients fetches errors p50_us p99_us p999_us mean_us wall_s fetches_per_s
 * A fetch whose result has any metric with a negative numval counts as an
 * error (PM_ERR_* from the agent or pmcd).
 */
#include <pcp/pmapi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* run_client fetches n times and writes latencies then an error count to fd. */
static int run_client(int fd, int n, int warmup, int nmetrics, char **names)
{
    pmID *pmids = calloc(nmetrics, sizeof(pmID));
    double *lat = calloc(n, sizeof(double));
    int sts, i, j, errors = 0;
    pmResult *rp;

    if ((sts = pmNewContext(PM_CONTEXT_HOST, "local:")) < 0) {
        fprintf(stderr, "fetchloop: pmNewContext: %s\n", pmErrStr(sts));
        return 1;
    }
    if ((sts = pmLookupName(nmetrics, (const char **)names, pmids)) < 0) {
        fprintf(stderr, "fetchloop: pmLookupName: %s\n", pmErrStr(sts));
        return 1;
    }
    for (i = 0; i < warmup + n; i++) {
        double t0 = now_us();
        sts = pmFetch(nmetrics, pmids, &rp);
        double t1 = now_us();
        if (sts < 0) {
            errors++;
            continue;
        }
        for (j = 0; j < rp->numpmid; j++)
            if (rp->vset[j]->numval < 0)
                errors++;
        pmFreeResult(rp);
        if (i >= warmup)
            lat[i - warmup] = t1 - t0;
    }
    if (write(fd, lat, n * sizeof(double)) != (ssize_t)(n * sizeof(double)) ||
        write(fd, &errors, sizeof(errors)) != sizeof(errors))
        return 1;
    return 0;
}

static int read_full(int fd, void *buf, size_t len)
{
    size_t got = 0;
    while (got < len) {
        ssize_t r = read(fd, (char *)buf + got, len - got);
        if (r <= 0)
            return -1;
        got += r;
    }
    return 0;
}

int main(int argc, char **argv)
{
    int n = 10000, clients = 1, warmup = 100, c, i;
    while ((c = getopt(argc, argv, "n:c:w:")) != -1) {
        switch (c) {
        case 'n': n = atoi(optarg); break;
        case 'c': clients = atoi(optarg); break;
        case 'w': warmup = atoi(optarg); break;
        default:
            fprintf(stderr, "usage: fetchloop [-n fetches] [-c clients] [-w warmup] metric ...\n");
            return 2;
        }
    }
    int nmetrics = argc - optind;
    if (nmetrics < 1 || n < 1 || clients < 1) {
        fprintf(stderr, "fetchloop: need metrics, n >= 1, clients >= 1\n");
        return 2;
    }
    int (*fds)[2] = calloc(clients, sizeof(*fds));
    pid_t *pids = calloc(clients, sizeof(pid_t));
    double start = now_us();
    for (i = 0; i < clients; i++) {
        if (pipe(fds[i]) < 0)
            return 1;
        if ((pids[i] = fork()) == 0) {
            close(fds[i][0]);
            _exit(run_client(fds[i][1], n, warmup, nmetrics, argv + optind));
        }
        close(fds[i][1]);
    }
    double *all = calloc((size_t)n * clients, sizeof(double));
    long errors = 0;
    int failed = 0;
    for (i = 0; i < clients; i++) {
        int e = 0;
        if (read_full(fds[i][0], all + (size_t)i * n, n * sizeof(double)) < 0 ||
            read_full(fds[i][0], &e, sizeof(e)) < 0)
            failed++;
        errors += e;
        close(fds[i][0]);
    }
    for (i = 0; i < clients; i++) {
        int st;
        waitpid(pids[i], &st, 0);
        if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
            failed++;
    }
    double wall = (now_us() - start) / 1e6;
    if (failed) {
        fprintf(stderr, "fetchloop: %d client(s) failed\n", failed);
        return 1;
    }
    size_t total = (size_t)n * clients;
    double sum = 0;
    for (size_t k = 0; k < total; k++)
        sum += all[k];
    qsort(all, total, sizeof(double), cmp_double);
    printf("clients=%d fetches=%zu errors=%ld p50_us=%.1f p99_us=%.1f p999_us=%.1f mean_us=%.1f wall_s=%.3f fetches_per_s=%.0f\n",
           clients, total, errors, all[total / 2], all[total * 99 / 100], all[total * 999 / 1000],
           sum / total, wall, total / wall);
    return 0;
}
