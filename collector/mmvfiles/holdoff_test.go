package mmvfiles

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/mmv/mmvtest"
)

// heldBack counts the problems that tell a change is held back and fails
// on any other.
func heldBack(t *testing.T, problems []string) int {
	t.Helper()
	n := 0
	for _, p := range problems {
		if strings.Contains(p, "changes are held back while they come fast") {
			n++
		} else {
			t.Errorf("problem %q", p)
		}
	}
	return n
}

// A file created and removed at every scan changes the metrics a few
// times only: the gap doubles to its most, each hold is told once, and
// the other file serves its metric and value throughout.
func TestMMVFlappingFileIsHeldBack(t *testing.T) {
	r := newMMVRig(t, defaultMMVLimits())
	r.step = time.Second
	r.write("steady", singleSpec(0, "n", 1, 7))
	if !r.scanQuiet() {
		t.Fatal("a file on a quiet host waits")
	}
	changes, told := 0, 0
	for i := 0; i < 200; i++ {
		if i%2 == 0 {
			r.write("flap", singleSpec(0, "m", 1, 1))
		} else {
			r.remove("flap")
		}
		changed, problems := r.scan()
		if changed {
			changes++
		}
		told += heldBack(t, problems)
		if v, ok := r.publish().one("hostcache.mmv.steady.n"); !ok || v.Bits != 7 {
			t.Fatalf("scan %d: steady.n = %d, %v", i, v.Bits, ok)
		}
	}
	if changes < 2 || changes > 8 {
		t.Errorf("%d changes in 200 scans, want 2 to 8", changes)
	}
	if told < 1 || told > changes+1 {
		t.Errorf("%d holds told for %d changes, want one at most a change", told, changes)
	}
	if gap := r.files.cat.pace.gap; gap != mmvChangeGapMax {
		t.Errorf("the gap is %v after 200 flaps, want %v", gap, mmvChangeGapMax)
	}
}

// On a quiet host a new file's metrics come at its first scan.
func TestMMVNewFileOnAQuietHostComesAtOnce(t *testing.T) {
	r := newMMVRig(t, defaultMMVLimits())
	r.step = time.Second
	r.write("one", singleSpec(0, "n", 1, 1))
	if !r.scanQuiet() {
		t.Fatal("the first file waits")
	}
	for i := 0; i < 10; i++ {
		r.scanQuiet()
	}
	r.write("two", singleSpec(0, "n", 1, 2))
	if !r.scanQuiet() || !slices.Contains(r.names(), "hostcache.mmv.two.n") {
		t.Fatalf("a file 10 s after the last change: %q", r.names())
	}
}

// Changes that come fast widen the gap; after a quiet spell of twice the
// gap a change comes at once and the gap is the shortest again.
func TestMMVGapShrinksAfterAQuietSpell(t *testing.T) {
	r := newMMVRig(t, defaultMMVLimits())
	r.step = time.Second
	for i := 0; i < 40; i++ {
		if i%2 == 0 {
			r.write("flap", singleSpec(0, "m", 1, 1))
		} else {
			r.remove("flap")
		}
		r.scan()
	}
	if gap := r.files.cat.pace.gap; gap < 8*time.Second {
		t.Fatalf("the gap after 40 flaps is %v", gap)
	}
	for r.files.cat.next != nil {
		r.scan() // the last flap's change applies
	}
	r.now = r.now.Add(2 * mmvChangeGapMax)
	r.write("one", singleSpec(0, "n", 1, 1))
	if changed, problems := r.scan(); !changed || heldBack(t, problems) != 0 {
		t.Fatalf("a change after a quiet spell: changed %v, problems %q", changed, problems)
	}
	if gap := r.files.cat.pace.gap; gap != mmvChangeGapMin {
		t.Errorf("the gap after a quiet spell is %v, want %v", gap, mmvChangeGapMin)
	}
	r.write("two", singleSpec(0, "n", 1, 2))
	changed, problems := r.scan()
	if changed || len(problems) != 1 || !strings.Contains(problems[0], "within 2 s; the change applies at "+r.now.Add(time.Second).Format("15:04:05")) {
		t.Fatalf("a change 1 s later: changed %v, problems %q", changed, problems)
	}
	if changed, problems := r.scan(); !changed || len(problems) != 0 {
		t.Errorf("2 s later: changed %v, problems %q", changed, problems)
	}
	if !slices.Contains(r.names(), "hostcache.mmv.two.n") {
		t.Errorf("names %q", r.names())
	}
}

// While a change waits, a file's new generation or new file of the same
// metrics publishes at once.
func TestMMVSameMetricsComeDuringAHold(t *testing.T) {
	r := newMMVRig(t, defaultMMVLimits())
	r.step = time.Second
	b := r.write("a", singleSpec(0, "n", 1, 1))
	r.scanQuiet() // gap 2 s
	r.write("b", singleSpec(0, "n", 1, 1))
	r.scan()
	r.write("c", singleSpec(0, "n", 1, 1))
	r.scan() // b came 2 s after a, so the gap is 4 s
	if r.files.cat.pace.gap != 4*time.Second {
		t.Fatalf("gap %v", r.files.cat.pace.gap)
	}
	r.write("d", singleSpec(0, "n", 1, 1))
	if changed, problems := r.scan(); changed || heldBack(t, problems) != 1 {
		t.Fatalf("d is not held: changed %v", changed)
	}
	b.SetBits(0, 5)
	b.PutU64(mmvtest.HdrGen1, 2)
	b.PutU64(mmvtest.HdrGen2, 2)
	r.rewrite("a", b)
	if changed, problems := r.scan(); changed || heldBack(t, problems) != 0 {
		t.Fatalf("a new generation: changed %v", changed)
	}
	if v, ok := r.publish().one("hostcache.mmv.a.n"); !ok || v.Bits != 5 {
		t.Errorf("a.n = %d, %v during the hold, want the new generation's 5", v.Bits, ok)
	}
	s := singleSpec(0, "n", 1, 6)
	s.Gen = 3
	r.write("a", s)
	if changed, problems := r.scan(); changed || heldBack(t, problems) != 0 {
		t.Fatalf("a new file: changed %v", changed)
	}
	if v, ok := r.publish().one("hostcache.mmv.a.n"); !ok || v.Bits != 6 {
		t.Errorf("a.n = %d, %v during the hold, want the new file's 6", v.Bits, ok)
	}
	if slices.Contains(r.names(), "hostcache.mmv.d.n") {
		t.Error("d came during the hold")
	}
	if changed, _ := r.scan(); !changed || !slices.Contains(r.names(), "hostcache.mmv.d.n") {
		t.Errorf("at the hold's end: changed %v, names %q", changed, r.names())
	}
}

// While a change waits the view in use stays: the parts of a removed
// file, a file of other metrics in place or anew, and a file in flux
// publish nothing, and the others publish as before.
func TestMMVHeldViewPublishesNothingStale(t *testing.T) {
	r := newMMVRig(t, defaultMMVLimits())
	built := map[string]*mmvtest.Built{}
	for i, name := range []string{"keep", "gone", "inplace", "anew", "flux"} {
		built[name] = r.write(name, singleSpec(0, "n", 1, uint64(i+1)))
	}
	r.scanQuiet()
	r.write("late", singleSpec(0, "n", 1, 9))
	if !r.scanQuiet() {
		t.Fatal("late did not come")
	}
	r.step = time.Second
	r.remove("gone")
	other := singleSpec(0, "other", 2, 1)
	other.Gen = 2
	r.rewrite("inplace", mmvtest.Build(other))
	r.write("anew", other)
	built["flux"].PutU64(mmvtest.HdrGen2, 7)
	r.rewrite("flux", built["flux"])
	if changed, problems := r.scan(); changed || heldBack(t, problems) != 1 {
		t.Fatalf("the changes are not held: changed %v", changed)
	}
	s := r.publish()
	for _, name := range []string{"gone", "inplace", "anew", "flux"} {
		if v, ok := s.one("hostcache.mmv." + name + ".n"); ok {
			t.Errorf("%s.n = %d during the hold, want no value", name, v.Bits)
		}
	}
	if v, ok := s.one("hostcache.mmv.keep.n"); !ok || v.Bits != 1 {
		t.Errorf("keep.n = %d, %v", v.Bits, ok)
	}
	if v, ok := s.one("hostcache.mmv.late.n"); !ok || v.Bits != 9 {
		t.Errorf("late.n = %d, %v", v.Bits, ok)
	}
	if changed, _ := r.scan(); !changed {
		t.Fatal("the held change did not apply")
	}
	want := []string{"hostcache.mmv.anew.other", "hostcache.mmv.inplace.other", "hostcache.mmv.keep.n", "hostcache.mmv.late.n"}
	if got := sorted(r.names()); !slices.Equal(got, want) {
		t.Errorf("names %q, want %q", got, want)
	}
}

// holdRig is a rig with file "a" in use and a change held back for at
// least 16 s: file "b" flapped until the gap grew that long.
func holdRig(t *testing.T, a mmvtest.Spec) *mmvRig {
	t.Helper()
	r := newMMVRig(t, defaultMMVLimits())
	r.write("a", a)
	r.scanQuiet()
	r.step = time.Second
	for i := 0; r.files.cat.pace.gap < 16*time.Second; i++ {
		if i%2 == 0 {
			r.write("b", singleSpec(0, "n", 1, 2))
		} else {
			r.remove("b")
		}
		for r.scan(); r.files.cat.next != nil; r.scan() {
		}
	}
	r.write("c", singleSpec(0, "n", 1, 3))
	if changed, _ := r.scan(); changed || r.files.cat.next == nil {
		t.Fatal("the rig's change is not held")
	}
	return r
}

// stillHeld fails the test once the rig's held change has applied.
func stillHeld(t *testing.T, r *mmvRig) {
	t.Helper()
	if r.files.cat.next == nil {
		t.Fatal("the held change applied: the test no longer tests a hold")
	}
}

// A file whose process exits while a change is held publishes nothing
// from then on: its last values are no longer true.
func TestMMVDeadProcessDuringAHoldPublishesNothing(t *testing.T) {
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Skip(err)
	}
	a := singleSpec(0, "n", 1, 7)
	a.Flags, a.PID = mmvtest.FlagProcess, int32(cmd.Process.Pid)
	r := holdRig(t, a)
	if v, ok := r.publish().one("hostcache.mmv.a.n"); !ok || v.Bits != 7 {
		t.Fatalf("a.n = %d, %v while its process runs", v.Bits, ok)
	}
	cmd.Process.Kill()
	cmd.Wait()
	r.scan()
	stillHeld(t, r)
	if v, ok := r.publish().one("hostcache.mmv.a.n"); ok {
		t.Errorf("a.n = %d during the hold though its process is gone", v.Bits)
	}
}

// A file removed and written again with the same metrics while a change
// is held publishes its new values at once.
func TestMMVRecreatedDuringAHoldPublishes(t *testing.T) {
	r := holdRig(t, singleSpec(0, "n", 1, 1))
	r.remove("a")
	r.scan()
	s := singleSpec(0, "n", 1, 5)
	s.Gen = 2
	r.write("a", s)
	r.scan()
	stillHeld(t, r)
	if v, ok := r.publish().one("hostcache.mmv.a.n"); !ok || v.Bits != 5 {
		t.Errorf("a.n = %d, %v during the hold after it came back", v.Bits, ok)
	}
}
