/*
 * procfetch: time pmFetch of two or more metric lists through pmcd, the
 * lists taking turns, for `bench procs`.
 *
 *   procfetch [-n fetches] [-T seconds] label=name,name,... label=name,...
 *
 * One context to local: pmcd, a unix socket: pmcd passes the client's
 * credentials to the agents, which then answer per-process metrics. Each
 * list is looked up, then the lists are fetched in turn, one fetch of each
 * a round: round 0 holds each list's first fetch of the context, then n
 * rounds follow, fewer when -T seconds have passed (a slow agent). Every
 * fetch prints one line:
 *   label round latency_us status values
 * status is 0, pmFetch's error, or the first negative numval of the
 * result (an agent's error, e.g. pmcd giving up on it after its timeout);
 * values is the first metric's number of values (the processes answered).
 */
#include <pcp/pmapi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

struct list {
    char *label;
    int n;
    char **names;
    pmID *pmids;
};

/* parse_list splits "label=a,b,c" in place. */
static int parse_list(char *arg, struct list *l)
{
    char *eq = strchr(arg, '='), *tok, *save = NULL;
    if (eq == NULL || eq == arg || eq[1] == '\0')
        return -1;
    *eq = '\0';
    l->label = arg;
    l->n = 0;
    l->names = calloc(strlen(eq + 1) / 2 + 2, sizeof(char *));
    for (tok = strtok_r(eq + 1, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save))
        l->names[l->n++] = tok;
    l->pmids = calloc(l->n, sizeof(pmID));
    return l->n > 0 ? 0 : -1;
}

/* fetch_one times one fetch of l and prints its line. */
static void fetch_one(struct list *l, int round)
{
    pmResult *rp;
    int j, status = 0, values = 0;
    double t0 = now_us();
    int sts = pmFetch(l->n, l->pmids, &rp);
    double t1 = now_us();
    if (sts < 0) {
        status = sts;
    } else {
        values = rp->vset[0]->numval < 0 ? 0 : rp->vset[0]->numval;
        for (j = 0; j < rp->numpmid && status == 0; j++)
            if (rp->vset[j]->numval < 0)
                status = rp->vset[j]->numval;
        pmFreeResult(rp);
    }
    printf("%s %d %.1f %d %d\n", l->label, round, t1 - t0, status, values);
}

int main(int argc, char **argv)
{
    int n = 50, c, i, round, sts;
    double limit_s = 0;
    while ((c = getopt(argc, argv, "n:T:")) != -1) {
        switch (c) {
        case 'n': n = atoi(optarg); break;
        case 'T': limit_s = atof(optarg); break;
        default:
            fprintf(stderr, "usage: procfetch [-n fetches] [-T seconds] label=name,... ...\n");
            return 2;
        }
    }
    int nlists = argc - optind;
    if (nlists < 1 || n < 0) {
        fprintf(stderr, "procfetch: need metric lists and n >= 0\n");
        return 2;
    }
    struct list *lists = calloc(nlists, sizeof(struct list));
    for (i = 0; i < nlists; i++)
        if (parse_list(argv[optind + i], &lists[i]) < 0) {
            fprintf(stderr, "procfetch: %s: want label=name,name,...\n", argv[optind + i]);
            return 2;
        }
    if ((sts = pmNewContext(PM_CONTEXT_HOST, "local:")) < 0) {
        fprintf(stderr, "procfetch: pmNewContext: %s\n", pmErrStr(sts));
        return 1;
    }
    for (i = 0; i < nlists; i++)
        if ((sts = pmLookupName(lists[i].n, (const char **)lists[i].names, lists[i].pmids)) < 0) {
            fprintf(stderr, "procfetch: %s: pmLookupName: %s\n", lists[i].label, pmErrStr(sts));
            return 1;
        }
    double start = now_us();
    for (round = 0; round <= n; round++) {
        if (round > 1 && limit_s > 0 && now_us() - start > limit_s * 1e6)
            break;
        for (i = 0; i < nlists; i++)
            fetch_one(&lists[i], round);
        fflush(stdout);
    }
    return 0;
}
