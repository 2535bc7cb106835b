// Package pcpenc holds the binary encodings that PCP's PDU wire and its
// archive files share: big-endian words and label sets. It knows no
// framing: a PDU and an archive record each place these pieces their own
// way, so the pmda and archive packages keep that part.
package pcpenc
