package network

import "github.com/pmdahostcache/pmdahostcache/cache"

// LinuxInDoms maps this package's instance domains to pmdalinux's serials
// (domain 60), which the twin tests check each metric's domain against.
// The softnet CPUs are pmdalinux's per-CPU domain (60.0).
func LinuxInDoms() map[cache.InDomID]cache.InDomID {
	return map[cache.InDomID]cache.InDomID{
		indomSoftnetCPU: 0, indomInterface: 3, indomNFSClient: 7, indomNFS3: 8,
		indomNFS4Client: 14, indomNFS4Server: 15, indomNetAddr: 17, indomICMPType: 23,
	}
}
