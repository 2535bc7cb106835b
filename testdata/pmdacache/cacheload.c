/*
 * cacheload reads an instance-domain id file the way pmdalinux does at
 * start (pmdaCacheOp with PMDA_CACHE_LOAD from libpcp_pmda), so a test can
 * see what pmdalinux would keep of a file hostcache wrote.
 *
 * usage: PCP_VAR_DIR=dir cacheload DOMAIN SERIAL [NAME...]
 * reads dir/config/pmda/DOMAIN.SERIAL and prints
 *   load N         what the load returned (entries read, or an error < 0)
 *   inst ID NAME   each entry read, in id order
 *   add ID NAME    the id pmdaCacheStore gives each NAME, as pmdalinux
 *                  stores every instance it sees
 *   save N         what PMDA_CACHE_SAVE returned (it writes when an
 *                  entry was added)
 * libpcp_pmda's own complaints go to stderr.
 */
#include <pcp/pmapi.h>
#include <pcp/pmda.h>
#include <stdio.h>
#include <stdlib.h>

static void
print_loaded(pmInDom indom)
{
    char	*name;
    int		inst;

    /* loaded entries are inactive, and a walk only shows active ones */
    pmdaCacheOp(indom, PMDA_CACHE_ACTIVE);
    pmdaCacheOp(indom, PMDA_CACHE_WALK_REWIND);
    while ((inst = pmdaCacheOp(indom, PMDA_CACHE_WALK_NEXT)) >= 0) {
	if (pmdaCacheLookup(indom, inst, &name, NULL) >= 0)
	    printf("inst %d %s\n", inst, name);
    }
}

int
main(int argc, char **argv)
{
    pmInDom	indom;
    int		i;

    if (argc < 3) {
	fprintf(stderr, "usage: cacheload DOMAIN SERIAL [NAME...]\n");
	return 2;
    }
    indom = pmInDom_build(atoi(argv[1]), atoi(argv[2]));
    printf("load %d\n", pmdaCacheOp(indom, PMDA_CACHE_LOAD));
    print_loaded(indom);
    for (i = 3; i < argc; i++)
	printf("add %d %s\n", pmdaCacheStore(indom, PMDA_CACHE_ADD, argv[i], NULL), argv[i]);
    printf("save %d\n", pmdaCacheOp(indom, PMDA_CACHE_SAVE));
    return 0;
}
