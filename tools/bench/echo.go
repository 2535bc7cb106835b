package main

import (
	"encoding/binary"
	"io"
	"os"
	"syscall"

	"github.com/pmdahostcache/pmdahostcache/pmda"
)

// runEchoAgent is the Go row of the PDU-level table: the least a Go agent
// can do over the transport pmdahostcache uses (non-blocking pipes read
// with raw calls, pmda.Stream). It says CREDS, ignores PROFILEs, and
// answers each FETCH with "no values" for every PMID, from no data at all.
func runEchoAgent() {
	var in io.Reader = os.Stdin
	var out io.Writer = os.Stdout
	if syscall.SetNonblock(0, true) == nil && syscall.SetNonblock(1, true) == nil {
		fi, fo := os.NewFile(0, "in"), os.NewFile(1, "out")
		r, rerr := pmda.NewStream(fi, fi)
		w, werr := pmda.NewStream(fo, fo)
		if rerr != nil || werr != nil {
			return
		}
		in, out = r, w
	}
	out.Write((&pmda.Creds{From: int32(os.Getpid()), Version: 2}).Append(nil))
	buf := make([]byte, 0, 64*1024)
	reply := make([]byte, 0, 64*1024)
	sets := make([]pmda.ValueSet, 0, 1024)
	for {
		h, pdu, err := pmda.ReadPDU(in, buf, 1<<20)
		if err != nil {
			return
		}
		buf = pdu
		if h.Type != pmda.TypeFetch || len(pdu) < 28 {
			continue // CREDS from the driver, PROFILE
		}
		n := int(binary.BigEndian.Uint32(pdu[24:]))
		sets = sets[:0]
		for i := 0; i < n && 28+4*i+4 <= len(pdu); i++ {
			sets = append(sets, pmda.ValueSet{PMID: binary.BigEndian.Uint32(pdu[28+4*i:])})
		}
		reply = pmda.AppendResult(reply[:0], 0, sets)
		if _, err := out.Write(reply); err != nil {
			return
		}
	}
}
