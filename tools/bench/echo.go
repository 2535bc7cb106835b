package main

import (
	"encoding/binary"
	"os"

	"github.com/pmdahostcache/pmdahostcache/pmda"
)

// runEchoAgent is the floor of the PDU-level table: the least a Go agent
// can do on pmcd's blocking pipes. It says CREDS, ignores PROFILEs, and
// answers each FETCH with "no values" for every PMID, from no data at all.
func runEchoAgent() {
	os.Stdout.Write((&pmda.Creds{From: int32(os.Getpid()), Version: 2}).Append(nil))
	in := make([]byte, 0, 64*1024)
	out := make([]byte, 0, 64*1024)
	for {
		h, pdu, err := pmda.ReadPDU(os.Stdin, in, 1<<20)
		if err != nil {
			return
		}
		in = pdu
		if h.Type != pmda.TypeFetch || len(pdu) < 28 {
			continue // CREDS from the driver, PROFILE
		}
		n := int(binary.BigEndian.Uint32(pdu[24:]))
		sets := make([]pmda.ValueSet, 0, n)
		for i := 0; i < n && 28+4*i+4 <= len(pdu); i++ {
			sets = append(sets, pmda.ValueSet{PMID: binary.BigEndian.Uint32(pdu[28+4*i:])})
		}
		out = pmda.AppendResult(out[:0], 0, sets)
		if _, err := os.Stdout.Write(out); err != nil {
			return
		}
	}
}
