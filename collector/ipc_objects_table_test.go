package collector

// ipcObjectsDescs is the verified pmdalinux descriptor table of the SysV
// IPC objects (its clusters 64 shm, 65 msg, 66 sem), transcribed from
// `pminfo -dT` against pmdalinux (PCP 6.0.3, kernel 6.18), with the PMIDs
// we give the twins: pmdalinux's items plus ipcObjectItemBase in our
// cluster of the same table. pmdalinux's units of ipc.msg.last_send_pid
// (byte) are its slip, kept so the descriptor is its own.
var ipcObjectsDescs = []pmdalinuxDesc{
	{"ipc.shm.key", "30.100", "string", "discrete", "none", "60.28"},
	{"ipc.shm.owner", "30.101", "string", "discrete", "none", "60.28"},
	{"ipc.shm.perms", "30.102", "32-bit unsigned int", "instant", "none", "60.28"},
	{"ipc.shm.segsz", "30.103", "32-bit unsigned int", "discrete", "byte", "60.28"},
	{"ipc.shm.nattch", "30.104", "32-bit unsigned int", "instant", "none", "60.28"},
	{"ipc.shm.status", "30.105", "string", "instant", "none", "60.28"},
	{"ipc.shm.creator_pid", "30.106", "32-bit unsigned int", "discrete", "none", "60.28"},
	{"ipc.shm.last_access_pid", "30.107", "32-bit unsigned int", "instant", "none", "60.28"},
	{"ipc.msg.key", "28.100", "string", "discrete", "none", "60.29"},
	{"ipc.msg.owner", "28.101", "string", "discrete", "none", "60.29"},
	{"ipc.msg.perms", "28.102", "32-bit unsigned int", "instant", "none", "60.29"},
	{"ipc.msg.msgsz", "28.103", "32-bit unsigned int", "discrete", "byte", "60.29"},
	{"ipc.msg.messages", "28.104", "32-bit unsigned int", "instant", "none", "60.29"},
	{"ipc.msg.last_send_pid", "28.105", "32-bit unsigned int", "instant", "byte", "60.29"},
	{"ipc.msg.last_recv_pid", "28.106", "32-bit unsigned int", "instant", "none", "60.29"},
	{"ipc.sem.key", "29.100", "string", "discrete", "none", "60.30"},
	{"ipc.sem.owner", "29.101", "string", "discrete", "none", "60.30"},
	{"ipc.sem.perms", "29.102", "32-bit unsigned int", "instant", "none", "60.30"},
	{"ipc.sem.nsems", "29.103", "32-bit unsigned int", "instant", "none", "60.30"},
}
