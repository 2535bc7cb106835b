// Package pmda speaks PCP's binary PDU protocol to pmcd as a daemon PMDA.
//
// The wire files (pdu_*.go, header.go) know bytes only: one file per PDU
// family with Decode and Append functions on bounds-checked primitives. The
// server files (server.go, handle_*.go) know the conversation: the CREDS
// handshake, the dispatch table, per-context profiles, and reading exactly
// one cache snapshot per request. docs/protocol.md is the project's account
// of the protocol as this package speaks it, checked against pmcd 6.0.3.
package pmda
