/*
 * alignedfetch: fetch one singular metric through local pmcd a given time
 * after each of n whole seconds (wall clock), as a client on a wall-clock
 * grid does, and print one line per fetch: "<fetch time> <value>", the
 * time in seconds since the epoch, the value as an unsigned 64-bit integer.
 *
 *   alignedfetch n offset_us metric
 *
 * Built by the integration tests with: cc -o alignedfetch alignedfetch.c -lpcp
 */
#include <pcp/pmapi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
    pmID pmid;
    pmDesc desc;
    pmResult *rp;
    pmAtomValue av;
    struct timespec now, next;
    int n, offset_us, i, sts;
    const char *name;

    if (argc != 4) {
        fprintf(stderr, "usage: alignedfetch n offset_us metric\n");
        return 2;
    }
    n = atoi(argv[1]);
    offset_us = atoi(argv[2]);
    name = argv[3];
    if ((sts = pmNewContext(PM_CONTEXT_HOST, "local:")) < 0) {
        fprintf(stderr, "alignedfetch: pmNewContext: %s\n", pmErrStr(sts));
        return 1;
    }
    if ((sts = pmLookupName(1, &name, &pmid)) < 0 || (sts = pmLookupDesc(pmid, &desc)) < 0) {
        fprintf(stderr, "alignedfetch: %s: %s\n", name, pmErrStr(sts));
        return 1;
    }
    for (i = 0; i < n; i++) {
        clock_gettime(CLOCK_REALTIME, &now);
        next.tv_sec = now.tv_sec + 1;
        next.tv_nsec = offset_us * 1000L;
        clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &next, NULL);
        clock_gettime(CLOCK_REALTIME, &now);
        if ((sts = pmFetch(1, &pmid, &rp)) < 0) {
            fprintf(stderr, "alignedfetch: pmFetch: %s\n", pmErrStr(sts));
            return 1;
        }
        if (rp->vset[0]->numval != 1) {
            fprintf(stderr, "alignedfetch: %s: %d values\n", name, rp->vset[0]->numval);
            return 1;
        }
        if ((sts = pmExtractValue(rp->vset[0]->valfmt, &rp->vset[0]->vlist[0], desc.type, &av, PM_TYPE_U64)) < 0) {
            fprintf(stderr, "alignedfetch: pmExtractValue: %s\n", pmErrStr(sts));
            return 1;
        }
        printf("%ld.%06ld %llu\n", (long)now.tv_sec, now.tv_nsec / 1000, (unsigned long long)av.ull);
        fflush(stdout);
        pmFreeResult(rp);
    }
    return 0;
}
