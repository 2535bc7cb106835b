package network

import (
	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// mptcpProto is the protocol of the Multipath TCP counters: the
// "MPTcpExt:" line pair of /proc/net/netstat, which the netproto
// collector reads with the TcpExt and IpExt pairs.
const mptcpProto = "MPTcpExt"

// mptcpCount declares a network.mptcp counter: pmdalinux's item (its
// cluster 53, shared with TcpExt) in a cluster of our own.
func mptcpCount(name string, item uint32, field string) snmpField {
	return snmpField{engine.Row{Name: name, Cluster: clusterMPTCP, Item: item, Type: cache.TypeU64,
		Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc(), mptcpProto, field}
}

// mptcpFields lists every network.mptcp metric of pmdalinux, each named
// after its field in lower case. Fields pmdalinux does not export (the
// newer MPCapableSYNTXDrop, MPCurrEstab, Blackhole, ...) are ignored.
// A field the kernel does not print has no value, as with pmdalinux:
// RcvPruned is missing from the MPTcpExt line of Linux 6.18.
var mptcpFields = []snmpField{
	mptcpCount("hostcache.network.mptcp.mpcapablesynrx", 119, "MPCapableSYNRX"),
	mptcpCount("hostcache.network.mptcp.mpcapableackrx", 120, "MPCapableACKRX"),
	mptcpCount("hostcache.network.mptcp.mpcapablefallbackack", 121, "MPCapableFallbackACK"),
	mptcpCount("hostcache.network.mptcp.mpcapablefallbacksynack", 122, "MPCapableFallbackSYNACK"),
	mptcpCount("hostcache.network.mptcp.mptcpretrans", 123, "MPTCPRetrans"),
	mptcpCount("hostcache.network.mptcp.mpjoinnotokenfound", 124, "MPJoinNoTokenFound"),
	mptcpCount("hostcache.network.mptcp.mpjoinsynrx", 125, "MPJoinSynRx"),
	mptcpCount("hostcache.network.mptcp.mpjoinsynackrx", 126, "MPJoinSynAckRx"),
	mptcpCount("hostcache.network.mptcp.mpjoinsynackhmacfailure", 127, "MPJoinSynAckHMacFailure"),
	mptcpCount("hostcache.network.mptcp.mpjoinackrx", 128, "MPJoinAckRx"),
	mptcpCount("hostcache.network.mptcp.mpjoinackhmacfailure", 129, "MPJoinAckHMacFailure"),
	mptcpCount("hostcache.network.mptcp.dssnotmatching", 130, "DSSNotMatching"),
	mptcpCount("hostcache.network.mptcp.infinitemaprx", 131, "InfiniteMapRx"),
	mptcpCount("hostcache.network.mptcp.mpcapablesyntx", 138, "MPCapableSYNTX"),
	mptcpCount("hostcache.network.mptcp.mpcapablesynackrx", 139, "MPCapableSYNACKRX"),
	mptcpCount("hostcache.network.mptcp.mpfallbacktokeninit", 140, "MPFallbackTokenInit"),
	mptcpCount("hostcache.network.mptcp.dssnomatchtcp", 169, "DSSNoMatchTCP"),
	mptcpCount("hostcache.network.mptcp.datacsumerr", 170, "DataCsumErr"),
	mptcpCount("hostcache.network.mptcp.ofoqueuetail", 171, "OFOQueueTail"),
	mptcpCount("hostcache.network.mptcp.ofoqueue", 172, "OFOQueue"),
	mptcpCount("hostcache.network.mptcp.ofomerge", 173, "OFOMerge"),
	mptcpCount("hostcache.network.mptcp.nodssinwindow", 174, "NoDSSInWindow"),
	mptcpCount("hostcache.network.mptcp.duplicatedata", 175, "DuplicateData"),
	mptcpCount("hostcache.network.mptcp.addaddr", 176, "AddAddr"),
	mptcpCount("hostcache.network.mptcp.echoadd", 177, "EchoAdd"),
	mptcpCount("hostcache.network.mptcp.portadd", 178, "PortAdd"),
	mptcpCount("hostcache.network.mptcp.mpjoinportsynrx", 179, "MPJoinPortSynRx"),
	mptcpCount("hostcache.network.mptcp.mpjoinportsynackrx", 180, "MPJoinPortSynAckRx"),
	mptcpCount("hostcache.network.mptcp.mpjoinportackrx", 181, "MPJoinPortAckRx"),
	mptcpCount("hostcache.network.mptcp.mismatchportsynrx", 182, "MismatchPortSynRx"),
	mptcpCount("hostcache.network.mptcp.mismatchportackrx", 183, "MismatchPortAckRx"),
	mptcpCount("hostcache.network.mptcp.rmaddr", 184, "RmAddr"),
	mptcpCount("hostcache.network.mptcp.rmsubflow", 185, "RmSubflow"),
	mptcpCount("hostcache.network.mptcp.mppriotx", 186, "MPPrioTx"),
	mptcpCount("hostcache.network.mptcp.mppriorx", 187, "MPPrioRx"),
	mptcpCount("hostcache.network.mptcp.rcvpruned", 188, "RcvPruned"),
	mptcpCount("hostcache.network.mptcp.mpfailtx", 190, "MPFailTx"),
	mptcpCount("hostcache.network.mptcp.mpfailrx", 191, "MPFailRx"),
	mptcpCount("hostcache.network.mptcp.subflowstale", 192, "SubflowStale"),
	mptcpCount("hostcache.network.mptcp.subflowrecover", 193, "SubflowRecover"),
	mptcpCount("hostcache.network.mptcp.addaddrdrop", 194, "AddAddrDrop"),
	mptcpCount("hostcache.network.mptcp.rmaddrdrop", 195, "RmAddrDrop"),
	mptcpCount("hostcache.network.mptcp.mpfastclosetx", 196, "MPFastcloseTx"),
	mptcpCount("hostcache.network.mptcp.mpfastcloserx", 197, "MPFastcloseRx"),
	mptcpCount("hostcache.network.mptcp.mprsttx", 198, "MPRstTx"),
	mptcpCount("hostcache.network.mptcp.mprstrx", 199, "MPRstRx"),
	mptcpCount("hostcache.network.mptcp.infinitemaptx", 200, "InfiniteMapTx"),
	mptcpCount("hostcache.network.mptcp.sndwndshared", 201, "SndWndShared"),
	mptcpCount("hostcache.network.mptcp.rcvwndshared", 202, "RcvWndShared"),
	mptcpCount("hostcache.network.mptcp.rcvwndconflictupdate", 203, "RcvWndConflictUpdate"),
	mptcpCount("hostcache.network.mptcp.rcvwndconflict", 204, "RcvWndConflict"),
}
