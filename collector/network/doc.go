// Package network holds the host's network collectors, pmdalinux's twins
// of its network, socket and NFS metrics: interfaces and their addresses
// (network.go, netaddr.go), protocol counters (netproto.go), socket tables
// (netconn.go, tcpconn.go, sockstat.go), softnet_stat and NFS/RPC calls.
// Its clusters and instance domains are in ids.go; the collector package's
// registry lists its collectors among the host's, in their fixed order.
package network
