package kernel

import "testing"

// Keep keeps the named columns of the first objects up to its limit, nil
// where a column is absent or a row short of it; the sums count every
// object; a second file's own header places the columns again.
func TestIPCTableKeep(t *testing.T) {
	table := NewIPCTable("nsems").Keep(2, "semid", "uid", "otime")
	table.Parse([]byte("key semid perms nsems uid\n1 10 600 3 0\n2 11 600\n3 12 600 5 7\n"))
	if table.Objects != 3 || table.Sums[0] != 8 || table.Kept() != 2 {
		t.Fatalf("objects %d, sum %d, kept %d; want 3, 8, 2", table.Objects, table.Sums[0], table.Kept())
	}
	for _, c := range []struct {
		i, j int
		want string
		null bool
	}{{0, 0, "10", false}, {0, 1, "0", false}, {0, 2, "", true}, {1, 0, "11", false}, {1, 1, "", true}} {
		got := table.Cell(c.i, c.j)
		if string(got) != c.want || (got == nil) != c.null {
			t.Errorf("cell %d,%d = %q (nil %v), want %q", c.i, c.j, got, got == nil, c.want)
		}
	}
	table.Parse([]byte("uid semid\n5 20\n"))
	if table.Kept() != 1 || string(table.Cell(0, 0)) != "20" || string(table.Cell(0, 1)) != "5" || table.Has(0) {
		t.Errorf("second file: kept %d, cells %q %q", table.Kept(), table.Cell(0, 0), table.Cell(0, 1))
	}
}

// A table that keeps nothing keeps no objects.
func TestIPCTableKeepsNothingUnasked(t *testing.T) {
	table := NewIPCTable("nsems")
	table.Parse([]byte("key semid perms nsems\n1 10 600 3\n"))
	if table.Kept() != 0 || table.Objects != 1 {
		t.Errorf("kept %d of %d", table.Kept(), table.Objects)
	}
}
