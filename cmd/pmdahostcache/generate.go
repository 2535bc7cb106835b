package main

// The PMNS, the help of the computed metrics and the metric index are
// generated from the metric schema; `make generate` does the same.
//go:generate go run ../../tools/genmetrics -root ../..
