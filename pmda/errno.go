package pmda

import "fmt"

// Errno is a PCP error code (PM_ERR_*, or a negated Unix errno) as it travels
// in ERROR PDUs and negative numval words.
type Errno int32

// PCP error codes a PMDA sends or receives (values from PCP 6.0.3 headers).
const (
	ErrGeneric      Errno = -12345
	ErrText         Errno = -12349
	ErrAppVersion   Errno = -12350
	ErrName         Errno = -12357
	ErrPMID         Errno = -12358
	ErrInDom        Errno = -12359
	ErrInst         Errno = -12360
	ErrConv         Errno = -12362
	ErrSign         Errno = -12364
	ErrIPC          Errno = -12366
	ErrPermission   Errno = -12387
	ErrAgain        Errno = -12389
	ErrNoContext    Errno = -12376
	ErrNotConn      Errno = -12391
	ErrType         Errno = -12397
	ErrNoContainer  Errno = -12399 // pmdaroot knows no such container
	ErrBadStore     Errno = -12400
	ErrNYI          Errno = -21344
	ErrPMDAReady    Errno = -13393
	ErrPMDANotReady Errno = -13394
)

var errnoNames = map[Errno]string{
	ErrGeneric: "PM_ERR_GENERIC", ErrText: "PM_ERR_TEXT", ErrAppVersion: "PM_ERR_APPVERSION",
	ErrName: "PM_ERR_NAME", ErrPMID: "PM_ERR_PMID", ErrInDom: "PM_ERR_INDOM", ErrInst: "PM_ERR_INST",
	ErrConv: "PM_ERR_CONV", ErrSign: "PM_ERR_SIGN", ErrIPC: "PM_ERR_IPC",
	ErrPermission: "PM_ERR_PERMISSION", ErrAgain: "PM_ERR_AGAIN",
	ErrNoContext: "PM_ERR_NOCONTEXT", ErrNotConn: "PM_ERR_NOTCONN", ErrType: "PM_ERR_TYPE", ErrBadStore: "PM_ERR_BADSTORE",
	ErrNoContainer: "PM_ERR_NOCONTAINER", ErrNYI: "PM_ERR_NYI",
	ErrPMDAReady: "PM_ERR_PMDAREADY", ErrPMDANotReady: "PM_ERR_PMDANOTREADY",
}

func (e Errno) Error() string {
	if n, ok := errnoNames[e]; ok {
		return n
	}
	return fmt.Sprintf("PCP error %d", int32(e))
}
