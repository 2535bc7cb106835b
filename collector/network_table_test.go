package collector

// networkDescs is the verified pmdalinux descriptor table of this area
// (see pmdalinux_test.go for the row format).
var networkDescs = []pmdalinuxDesc{}
