/*
 * instfetch: fetch metrics through local pmcd in one context, n times,
 * period_ms apart, and print which instances have a value: one line per
 * metric per fetch, "<fetch time> <metric index> <inst> <inst> ...", the
 * time in seconds since the epoch, taken just before pmFetch. A client
 * that keeps its context, as pmlogger and pmrep do, so its rates are
 * over its own intervals.
 *
 *   instfetch n period_ms metric ...
 *
 * Built by the integration tests with: cc -o instfetch instfetch.c -lpcp
 */
#include <pcp/pmapi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define MAXMETRICS 16

int main(int argc, char **argv)
{
    pmID pmids[MAXMETRICS];
    pmResult *rp;
    struct timespec now, gap;
    int n, nm, i, j, k, sts;

    if (argc < 4 || argc - 3 > MAXMETRICS) {
        fprintf(stderr, "usage: instfetch n period_ms metric ... (at most %d)\n", MAXMETRICS);
        return 2;
    }
    n = atoi(argv[1]);
    gap.tv_sec = atoi(argv[2]) / 1000;
    gap.tv_nsec = (atoi(argv[2]) % 1000) * 1000000L;
    nm = argc - 3;
    if ((sts = pmNewContext(PM_CONTEXT_HOST, "local:")) < 0) {
        fprintf(stderr, "instfetch: pmNewContext: %s\n", pmErrStr(sts));
        return 1;
    }
    if ((sts = pmLookupName(nm, (const char **)&argv[3], pmids)) < 0) {
        fprintf(stderr, "instfetch: pmLookupName: %s\n", pmErrStr(sts));
        return 1;
    }
    for (i = 0; i < n; i++) {
        if (i > 0)
            nanosleep(&gap, NULL);
        clock_gettime(CLOCK_REALTIME, &now);
        if ((sts = pmFetch(nm, pmids, &rp)) < 0) {
            fprintf(stderr, "instfetch: pmFetch: %s\n", pmErrStr(sts));
            return 1;
        }
        for (k = 0; k < nm; k++) {
            printf("%ld.%06ld %d", (long)now.tv_sec, now.tv_nsec / 1000, k);
            for (j = 0; j < rp->vset[k]->numval; j++)
                printf(" %d", rp->vset[k]->vlist[j].inst);
            printf("\n");
        }
        fflush(stdout);
        pmFreeResult(rp);
    }
    return 0;
}
