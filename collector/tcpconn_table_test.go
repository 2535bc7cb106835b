package collector

// tcpconnDescs are pmdalinux's descriptors of network.tcpconn.* and
// network.tcpconn6.* (pminfo -dT, PCP 6.0.3, kernel 6.18), with our PMIDs:
// pmdalinux's items, in our clusters 53 and 54.
var tcpconnDescs = []pmdalinuxDesc{
	{"network.tcpconn.established", "53.1", "32-bit unsigned int", "instant", "count", "PM_INDOM_NULL"},
	{"network.tcpconn.syn_sent", "53.2", "32-bit unsigned int", "instant", "count", "PM_INDOM_NULL"},
	{"network.tcpconn.syn_recv", "53.3", "32-bit unsigned int", "instant", "count", "PM_INDOM_NULL"},
	{"network.tcpconn.fin_wait1", "53.4", "32-bit unsigned int", "instant", "count", "PM_INDOM_NULL"},
	{"network.tcpconn.fin_wait2", "53.5", "32-bit unsigned int", "instant", "count", "PM_INDOM_NULL"},
	{"network.tcpconn.time_wait", "53.6", "32-bit unsigned int", "instant", "count", "PM_INDOM_NULL"},
	{"network.tcpconn.close", "53.7", "32-bit unsigned int", "instant", "count", "PM_INDOM_NULL"},
	{"network.tcpconn.close_wait", "53.8", "32-bit unsigned int", "instant", "count", "PM_INDOM_NULL"},
	{"network.tcpconn.last_ack", "53.9", "32-bit unsigned int", "instant", "count", "PM_INDOM_NULL"},
	{"network.tcpconn.listen", "53.10", "32-bit unsigned int", "instant", "count", "PM_INDOM_NULL"},
	{"network.tcpconn.closing", "53.11", "32-bit unsigned int", "instant", "count", "PM_INDOM_NULL"},
	{"network.tcpconn6.established", "54.1", "32-bit unsigned int", "instant", "count", "PM_INDOM_NULL"},
	{"network.tcpconn6.syn_sent", "54.2", "32-bit unsigned int", "instant", "count", "PM_INDOM_NULL"},
	{"network.tcpconn6.syn_recv", "54.3", "32-bit unsigned int", "instant", "count", "PM_INDOM_NULL"},
	{"network.tcpconn6.fin_wait1", "54.4", "32-bit unsigned int", "instant", "count", "PM_INDOM_NULL"},
	{"network.tcpconn6.fin_wait2", "54.5", "32-bit unsigned int", "instant", "count", "PM_INDOM_NULL"},
	{"network.tcpconn6.time_wait", "54.6", "32-bit unsigned int", "instant", "count", "PM_INDOM_NULL"},
	{"network.tcpconn6.close", "54.7", "32-bit unsigned int", "instant", "count", "PM_INDOM_NULL"},
	{"network.tcpconn6.close_wait", "54.8", "32-bit unsigned int", "instant", "count", "PM_INDOM_NULL"},
	{"network.tcpconn6.last_ack", "54.9", "32-bit unsigned int", "instant", "count", "PM_INDOM_NULL"},
	{"network.tcpconn6.listen", "54.10", "32-bit unsigned int", "instant", "count", "PM_INDOM_NULL"},
	{"network.tcpconn6.closing", "54.11", "32-bit unsigned int", "instant", "count", "PM_INDOM_NULL"},
}
