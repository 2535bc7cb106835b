/*
 * phasefetch: fetch a list of metrics through local pmcd, in one pmFetch,
 * n times, period_ms apart, the first offset_ms after the next whole
 * second (wall clock): a periodic client at a chosen phase, as pmlogger,
 * pmie or pmrep are at the second they were started. One line per fetch:
 * "<fetch time> <value> ...", the time in seconds since the epoch, taken
 * just before pmFetch, then each metric's value as a double ("nan" when the
 * fetch returned none).
 *
 *   phasefetch n period_ms offset_ms metric[instance] ...
 *
 * A metric with an instance domain names one instance in brackets
 * (hostcache.control.collector.age[cpu]); a singular metric has none.
 *
 * Built by the integration tests with: cc -o phasefetch phasefetch.c -lpcp
 */
#include <pcp/pmapi.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXMETRICS 16

struct want {
    pmID pmid;
    pmDesc desc;
    int inst; /* PM_IN_NULL for a singular metric */
};

/* lookup resolves "name" or "name[instance]" into w. */
static int lookup(const char *arg, struct want *w)
{
    char name[256], *inst;
    const char *np = name;
    int sts;

    snprintf(name, sizeof(name), "%s", arg);
    w->inst = PM_IN_NULL;
    if ((inst = strchr(name, '[')) != NULL) {
        *inst++ = '\0';
        inst[strcspn(inst, "]")] = '\0';
    }
    if ((sts = pmLookupName(1, &np, &w->pmid)) < 0 || (sts = pmLookupDesc(w->pmid, &w->desc)) < 0) {
        fprintf(stderr, "phasefetch: %s: %s\n", name, pmErrStr(sts));
        return -1;
    }
    if (inst != NULL && (w->inst = pmLookupInDom(w->desc.indom, inst)) < 0) {
        fprintf(stderr, "phasefetch: %s[%s]: %s\n", name, inst, pmErrStr(w->inst));
        return -1;
    }
    return 0;
}

/* value extracts w's value from one value set as a double, or NAN. */
static double value(const pmValueSet *vs, const struct want *w)
{
    pmAtomValue av;
    int j;

    for (j = 0; j < vs->numval; j++) {
        if (w->inst != PM_IN_NULL && vs->vlist[j].inst != w->inst)
            continue;
        if (pmExtractValue(vs->valfmt, &vs->vlist[j], w->desc.type, &av, PM_TYPE_DOUBLE) < 0)
            return NAN;
        return av.d;
    }
    return NAN;
}

/* sleep_until sleeps to an absolute wall-clock time in milliseconds. */
static void sleep_until(long long ms)
{
    struct timespec at = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L};

    while (clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &at, NULL) != 0)
        ;
}

int main(int argc, char **argv)
{
    struct want want[MAXMETRICS];
    pmID pmids[MAXMETRICS];
    pmResult *rp;
    struct timespec now;
    long long first, period;
    int n, nm, i, k, sts;

    if (argc < 5 || argc - 4 > MAXMETRICS) {
        fprintf(stderr, "usage: phasefetch n period_ms offset_ms metric[instance] ... (at most %d)\n", MAXMETRICS);
        return 2;
    }
    n = atoi(argv[1]);
    period = atoll(argv[2]);
    nm = argc - 4;
    if ((sts = pmNewContext(PM_CONTEXT_HOST, "local:")) < 0) {
        fprintf(stderr, "phasefetch: pmNewContext: %s\n", pmErrStr(sts));
        return 1;
    }
    for (k = 0; k < nm; k++) {
        if (lookup(argv[4 + k], &want[k]) < 0)
            return 1;
        pmids[k] = want[k].pmid;
    }
    clock_gettime(CLOCK_REALTIME, &now);
    first = ((long long)now.tv_sec + 1) * 1000 + atoll(argv[3]);
    for (i = 0; i < n; i++) {
        sleep_until(first + i * period);
        clock_gettime(CLOCK_REALTIME, &now);
        if ((sts = pmFetch(nm, pmids, &rp)) < 0) {
            fprintf(stderr, "phasefetch: pmFetch: %s\n", pmErrStr(sts));
            return 1;
        }
        printf("%ld.%06ld", (long)now.tv_sec, now.tv_nsec / 1000);
        for (k = 0; k < nm; k++)
            printf(" %.17g", value(rp->vset[k], &want[k]));
        printf("\n");
        fflush(stdout);
        pmFreeResult(rp);
    }
    return 0;
}
