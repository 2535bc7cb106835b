package kernel

import "bytes"

// /proc/zoneinfo (mm/vmstat.c, zoneinfo_show): for each node and zone a
// "Node N, zone NAME" line, then indented "key value" lines. Under a
// node's first zone a "per-node stats" block holds the node's own
// counters; "pages free V" starts the zone's own (watermarks, sizes,
// "protection: (a, b, ...)", nr_zone_* and numa_* counters); "pagesets"
// starts per-CPU lines ("count: 0"), which are not read. An unpopulated
// zone prints only its watermarks and sizes.

// ZoneinfoSink takes what ParseZoneinfo finds: per-node counters (zone
// nil), a zone's counters, and a zone's protection list.
type ZoneinfoSink interface {
	Node(node int, key []byte, v uint64)
	Zone(node int, zone, key []byte, v uint64)
	Protection(node int, zone []byte, reserved []uint64)
}

// ParseZoneinfo reads the text and returns how many lines it could not
// read. Names passed to the sink point into data.
func ParseZoneinfo(data []byte, sink ZoneinfoSink, scratch []uint64) (bad int) {
	node, zone := -1, []byte(nil)
	const (
		inNode = iota
		inZone
		inPagesets
	)
	mode := inZone
	for len(data) > 0 {
		var line []byte
		line, data = nextTextLine(data)
		var f [4][]byte
		n := fieldsOf(line, f[:])
		switch {
		case n == 0:
		case string(f[0]) == "Node":
			v, ok := ParseDecimal(bytes.TrimSuffix(f[1], []byte(",")))
			if n != 4 || !ok || string(f[2]) != "zone" {
				bad++
				node, zone = -1, nil
				continue
			}
			node, zone, mode = int(v), f[3], inZone
		case node < 0:
			bad++
		case n == 2 && string(f[0]) == "per-node" && string(f[1]) == "stats":
			mode = inNode
		case n == 1 && string(f[0]) == "pagesets":
			mode = inPagesets
		case mode == inPagesets:
		case string(f[0]) == "protection:":
			rest := bytes.TrimSpace(line[bytes.IndexByte(line, ':')+1:])
			rest = bytes.TrimSuffix(bytes.TrimPrefix(rest, []byte("(")), []byte(")"))
			scratch = scratch[:0]
			ok := true
			for _, w := range bytes.Split(rest, []byte(",")) {
				v, good := ParseDecimal(bytes.TrimSpace(w))
				ok = ok && good
				scratch = append(scratch, v)
			}
			if !ok {
				bad++
				continue
			}
			sink.Protection(node, zone, scratch)
		case n == 3 && string(f[0]) == "pages" && string(f[1]) == "free":
			mode = inZone
			if v, ok := ParseDecimal(f[2]); ok {
				sink.Zone(node, zone, f[1], v)
			} else {
				bad++
			}
		case n == 2:
			v, ok := ParseDecimal(f[1])
			switch {
			case !ok || bytes.HasSuffix(f[0], []byte(":")):
				// "node_unreclaimable:  0", "start_pfn: 1": the zone's
				// state, not a count pmdalinux exports.
			case mode == inNode:
				sink.Node(node, f[0], v)
			default:
				sink.Zone(node, zone, f[0], v)
			}
		}
	}
	return bad
}
