package mmvfiles

import (
	"errors"
	"fmt"
	"syscall"

	"github.com/pmdahostcache/pmdahostcache/mmv"
)

// mmvFile is one regular file of the directory: open, and parsed while
// its generation is stable and nothing about it is refused.
type mmvFile struct {
	name    string
	arrival uint64      // earlier files keep contested clusters and names
	reader  *mmv.Reader // nil while the file cannot be opened
	layout  *mmv.File   // the parsed layout; nil while not usable
	cluster uint32      // the cluster while in use, else 0
	fault   mmvFault    // the refusal last reported
	waiting bool        // told it waits for the files limit
	plan    *mmvPlan    // what the layout publishes at its cluster
	size    int64       // the file's size when its layout was last read
}

// mmvFault is a refusal of a file at one size and generation (-1 and 0
// when it could not be read): the file is not parsed again, nor the
// refusal reported again, until one of them changes.
type mmvFault struct {
	size int64
	gen  uint64
	text string
}

// refuse records a refusal and returns it as a problem naming the file,
// or nil when it is the one already reported.
func (f *mmvFile) refuse(size int64, gen uint64, text string) error {
	fault := mmvFault{size, gen, text}
	if fault == f.fault {
		return nil
	}
	f.fault = fault
	return fmt.Errorf("mmv file %s: %s", f.name, text)
}

// refresh reads the file and keeps its layout current: parsed when its
// generation is new, dropped while it is in flux, refused while it is
// bad, shrank under its generation or its process is gone.
func (f *mmvFile) refresh(lim mmv.Limits) error {
	if f.unchanged() {
		return nil
	}
	if f.inTheMaking() {
		f.layout = nil // looked at again next scan, from its header
		f.reader.Release()
		return nil
	}
	err := f.read(lim)
	if f.layout == nil {
		f.reader.Release()
	}
	return err
}

// unchanged says, from the header and size alone, that the file is as
// last read: in use under the same generation, or refused as it is. Only
// then is it not read whole.
func (f *mmvFile) unchanged() bool {
	head, size, err := f.reader.Head()
	if err != nil {
		return false
	}
	gen, stable := mmv.Stable(head)
	if !stable {
		return false
	}
	if f.fault.text != "" && f.fault.size == size && f.fault.gen == gen {
		return true
	}
	return f.layout != nil && f.layout.Gen == gen && f.size == size && !f.ownerGone()
}

// inTheMaking says, from the header alone, that the file is being
// written: its generations disagree or are zero and it may still become
// an MMV file. It is not read whole until its header is stable.
func (f *mmvFile) inTheMaking() bool {
	head, _, err := f.reader.Head()
	if err != nil {
		return false
	}
	_, stable := mmv.Stable(head)
	return !stable && !mmvForeign(head)
}

// ownerGone says the process that owns the file in use has exited.
func (f *mmvFile) ownerGone() bool {
	pid, ok := f.layout.Owner()
	return ok && processGone(pid)
}

// read reads the file whole and keeps its layout current.
func (f *mmvFile) read(lim mmv.Limits) error {
	data, err := f.reader.Read()
	if err != nil {
		f.layout = nil
		return f.refuse(-1, 0, err.Error())
	}
	size := int64(len(data))
	gen, stable := mmv.Stable(data)
	if !stable && !mmvForeign(data) {
		f.layout = nil // being written: looked at again next scan
		return nil
	}
	if f.fault.text != "" && f.fault.size == size && f.fault.gen == gen {
		return nil // refused as it is
	}
	if f.layout != nil && f.layout.Gen == gen && !f.layout.Fits(data) {
		f.layout = nil
		return f.refuse(size, gen, fmt.Sprintf("shrank to %d bytes under generation %d", size, gen))
	}
	if f.layout == nil || f.layout.Gen != gen {
		if f.layout, err = mmv.Parse(data, lim); err != nil {
			return f.refuse(size, gen, err.Error())
		}
		f.fault = mmvFault{}
	}
	if pid, ok := f.layout.Owner(); ok && processGone(pid) {
		f.layout = nil
		return f.refuse(size, gen, fmt.Sprintf("its process %d is gone", pid))
	}
	f.size = size
	return nil
}

// mmvForeign says data is a whole header's length that does not start
// as an MMV file does. A writer creates its file, sizes it (zeros) and
// then writes the header: a file shorter than a header or starting with
// zeros may still become one.
func mmvForeign(data []byte) bool {
	const headerSize = 40
	return len(data) >= headerSize && string(data[:4]) != "MMV\x00" && string(data[:4]) != "\x00\x00\x00\x00"
}

// processGone asks kill(pid, 0): ESRCH is no such process; EPERM is one
// that exists under another user. The pid is the writer's in its own pid
// namespace, as pmdammv takes it too.
func processGone(pid int32) bool {
	return errors.Is(syscall.Kill(int(pid), 0), syscall.ESRCH)
}

// usable says the file may be in use: open, parsed and not refused.
func (f *mmvFile) usable() bool { return f.reader != nil && f.layout != nil }

// close forgets the open file and its layout, keeping the refusal so a
// file that cannot be opened is not reported at each scan.
func (f *mmvFile) close() {
	if f.reader != nil {
		f.reader.Close()
	}
	f.reader, f.layout, f.plan, f.waiting = nil, nil, nil, false
}
