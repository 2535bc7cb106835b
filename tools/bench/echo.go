package main

import (
	"encoding/binary"
	"os"

	"github.com/pmdahostcache/pmdahostcache/pmda"
)

// runEchoAgent is the Go row of the PDU-level table: the least a Go agent
// can do over the transport pmdahostcache uses (pmda.Stdio). It says
// CREDS, ignores PROFILEs, and answers each FETCH with "no values" for
// every PMID, from no data at all.
func runEchoAgent() {
	conn, err := pmda.Stdio()
	if err != nil {
		return
	}
	conn.Write((&pmda.Creds{From: int32(os.Getpid()), Version: 2}).Append(nil))
	buf := make([]byte, 0, 64*1024)
	reply := make([]byte, 0, 64*1024)
	sets := make([]pmda.ValueSet, 0, 1024)
	for {
		h, pdu, err := pmda.ReadPDU(conn, buf, 1<<20)
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
		if _, err := conn.Write(reply); err != nil {
			return
		}
	}
}
