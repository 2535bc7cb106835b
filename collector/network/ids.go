package network

import "github.com/pmdahostcache/pmdahostcache/cache"

// The network collectors' clusters, pmdalinux's numbers where it has them
// (collector/clusters.go holds the host's others and the free ranges):
// an ABI, never reused.
const (
	clusterNetdev    = 8  // /proc/net/dev + /sys/class/net: network.interface.*, network.all.*
	clusterSNMP      = 9  // /proc/net/snmp, /proc/net/netstat: network.tcp.*, network.udp.*
	clusterSock      = 19 // /proc/net/sockstat: network.sockstat.*
	clusterSock6     = 20 // /proc/net/sockstat6: network.sockstat.*6.*
	clusterUDPConn   = 23 // udp: network.udpconn.*
	clusterUDPConn6  = 24 // udp6: network.udpconn6.*
	clusterRawConn   = 25 // raw: network.rawconn.*
	clusterRawConn6  = 26 // raw6: network.rawconn6.*
	clusterUnix      = 27 // unix: network.unix.*
	clusterSoftnet   = 37 // /proc/net/softnet_stat: network.softnet.*, pmdalinux's 57
	clusterNFSClient = 44 // /proc/net/rpc/nfs, nfsd: nfs*.client/server.*, rpc.*, pmdalinux's 7 items
	clusterNetAddr   = 46 // SIOCGIFCONF, if_inet6, sysfs: network.interface.*_addr, pmdalinux's 33
	clusterMPTCP     = 52 // /proc/net/netstat MPTcpExt: network.mptcp.*
	clusterTCPConn   = 53 // /proc/net/tcp states: network.tcpconn.*
	clusterTCPConn6  = 54 // /proc/net/tcp6 states: network.tcpconn6.*
)

// The network collectors' instance domain serials, an ABI like the clusters.
const (
	indomInterface  cache.InDomID = 6  // network interfaces, 60.3
	indomSoftnetCPU cache.InDomID = 19 // the CPUs of softnet_stat, "cpuN", id N, as 60.0
	indomICMPType   cache.InDomID = 21 // ICMP message types "Type0".."Type255", id the type, 60.23
	indomNFSClient  cache.InDomID = 26 // NFS v2 operations (client and server), as 60.7
	indomNFS3       cache.InDomID = 27 // NFS v3 operations, as 60.8
	indomNFS4Client cache.InDomID = 28 // NFS v4 client operations, as 60.14
	indomNFS4Server cache.InDomID = 29 // NFS v4 server operations, as 60.15
	indomNetAddr    cache.InDomID = 30 // interfaces and IPv4 labels with addresses, as 60.17
)
