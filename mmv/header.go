package mmv

// header is the fixed start of a file.
type header struct {
	version int
	gen     uint64
	tocs    int
	flags   Flags
	pid     int32
	cluster uint32
}

// Stable reports whether data holds a finished MMV file and its generation:
// both generation numbers equal and non-zero. A writer sets the second one
// last, so a file that is not stable is still being written. The caller
// re-parses when the generation differs from File.Gen.
func Stable(data []byte) (gen uint64, ok bool) {
	if len(data) < headerSize || string(data[:4]) != "MMV\x00" {
		return 0, false
	}
	g1, _ := u64(data, 8)
	g2, _ := u64(data, 16)
	return g1, g1 != 0 && g1 == g2
}

func parseHeader(data []byte) (header, error) {
	var h header
	if len(data) < headerSize || string(data[:4]) != "MMV\x00" {
		return h, errAt(ErrNotMMV, 0, "no MMV header in %d bytes", len(data))
	}
	v, _ := u32(data, 4)
	if v < 1 || v > 3 {
		return h, errAt(ErrVersion, 4, "version %d", int32(v))
	}
	gen, ok := Stable(data)
	if !ok {
		g2, _ := u64(data, 16)
		return h, errAt(ErrUnstable, 8, "generations %d and %d", gen, g2)
	}
	tocs, _ := u32(data, 24)
	flags, _ := u32(data, 28)
	pid, _ := u32(data, 32)
	cluster, _ := u32(data, 36)
	if tocs < 2 || tocs > secTypes {
		return h, formatErr(24, "%d table of contents entries, want 2 to %d", int32(tocs), secTypes)
	}
	if cluster > maxCluster {
		return h, formatErr(36, "cluster %d above %d", int32(cluster), maxCluster)
	}
	return header{version: int(v), gen: gen, tocs: int(tocs), flags: Flags(flags),
		pid: int32(pid), cluster: cluster}, nil
}
