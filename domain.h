/*
 * hostcache PMDA domain number: from PCP's end-user range (385-510).
 * Install reads the first #define below; pmns and help use the symbol.
 */
#define HOSTCACHE 396
