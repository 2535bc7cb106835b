// Package pmda speaks PCP's binary PDU protocol to pmcd as a daemon PMDA.
//
// The wire files (pdu_*.go, header.go) know bytes only: one file per PDU
// family with Decode and Append functions on bounds-checked primitives. The
// server files (server.go, handle_*.go) know the conversation: the CREDS
// handshake, the dispatch table, per-context profiles, and reading exactly
// one cache snapshot per request. The protocol reference this follows is
// shared/ref/pmda-protocol.md (PCP 6.0.3, checked against a real pmcd).
package pmda
