// Package archtest holds tests of the project's architecture: which
// package may import which (the arrows point one way, and pmda and the
// collector side never meet), and that nothing but the PDU channel writes
// to standard output, which in pipe mode belongs to pmcd.
package archtest
