package collector

// hostDescs is the verified pmdalinux descriptor table of this area
// (see pmdalinux_test.go for the row format).
var hostDescs = []pmdalinuxDesc{}
