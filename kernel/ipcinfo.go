package kernel

import (
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// IPCLimits are the System V IPC limits and the shared-memory swap counts
// the kernel reports to semctl, msgctl and shmctl with IPC_INFO and
// SHM_INFO, for the caller's IPC namespace. Most limits are also in
// /proc/sys/kernel, but not all (the semaphore map and undo sizes, the
// message pool), and these calls are what ipcs -l and pmdalinux read.
type IPCLimits struct {
	Sem           SemInfo
	Msg           MsgInfo
	Shm           ShmInfo
	SwapAttempts  uint64 // shm_info.swap_attempts (0 since Linux 2.4)
	SwapSuccesses uint64 // shm_info.swap_successes
	// Why a kind could not be read (a kernel built without it); its
	// fields are then zero.
	SemErr, MsgErr, ShmErr error
}

// SemInfo is struct seminfo: ten ints, the same on every architecture.
type SemInfo struct {
	Map, Mni, Mns, Mnu, Msl, Opm, Ume, Usz, Vmx, Aem int32
}

// MsgInfo is struct msginfo: seven ints and an unsigned short.
type MsgInfo struct {
	Pool, Map, Max, Mnb, Mni, Ssz, Tql int32
	Seg                                uint16
}

// ShmInfo is struct shminfo64, unsigned longs (64-bit architectures only,
// as the agent is built): the kernel returns it for IPC_INFO.
type ShmInfo struct {
	Max, Min, Mni, Seg, All uint64
	_                       [4]uint64
}

// shmInfo is struct shm_info (SHM_INFO): an int, then unsigned longs.
type shmInfo struct {
	UsedIDs                              int32
	_                                    int32
	Tot, RSS, Swp, SwapAttempts, SwapOKs uint64
}

// The commands of <linux/ipc.h> and <linux/shm.h>.
const (
	cmdIPCInfo = 3
	cmdSHMInfo = 14
)

// ReadIPCLimits asks the calls. Each kind fails alone (a kernel without
// it), with its error in SemErr, MsgErr or ShmErr.
func ReadIPCLimits() IPCLimits {
	var l IPCLimits
	l.SemErr = ipcCall(unix.SYS_SEMCTL, 0, 0, cmdIPCInfo, unsafe.Pointer(&l.Sem))
	l.MsgErr = ipcCall(unix.SYS_MSGCTL, 0, cmdIPCInfo, 0, unsafe.Pointer(&l.Msg))
	if l.ShmErr = ipcCall(unix.SYS_SHMCTL, 0, cmdIPCInfo, 0, unsafe.Pointer(&l.Shm)); l.ShmErr != nil {
		return l
	}
	var si shmInfo
	if l.ShmErr = ipcCall(unix.SYS_SHMCTL, 0, cmdSHMInfo, 0, unsafe.Pointer(&si)); l.ShmErr != nil {
		l.Shm = ShmInfo{}
		return l
	}
	l.SwapAttempts, l.SwapSuccesses = si.SwapAttempts, si.SwapOKs
	return l
}

// ipcCall makes one of the *ctl calls. semctl takes (id, semnum, cmd,
// arg), msgctl and shmctl (id, cmd, buf): the caller places the pointer.
func ipcCall(trap uintptr, a0, a1, a2 uintptr, buf unsafe.Pointer) error {
	var err syscall.Errno
	if trap == unix.SYS_SEMCTL {
		_, _, err = syscall.Syscall6(trap, a0, a1, a2, uintptr(buf), 0, 0)
	} else {
		_, _, err = syscall.Syscall(trap, a0, a1, uintptr(buf))
	}
	if err != 0 {
		return err
	}
	return nil
}
