package archive

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// MaxVolume is where a new volume starts: the index keeps 32-bit offsets,
// so no volume may reach 2 GB.
const MaxVolume = 2<<30 - 64<<20

// indexEvery is how many results pass between two index entries besides
// those at the start, at each new volume and at the end.
const indexEvery = 600

// Writer writes one archive. The files are written in a hidden directory
// beside the final ones and moved into place by Commit, so a failure (a
// full disk, an error of the caller) never leaves something that looks
// like a complete archive: Abort, or a failed Commit, removes them all.
type Writer struct {
	dir, base string // the archive is dir/base.{meta,index,0,...}
	tmp       string // where the files are until Commit
	label     LogLabel
	meta      *os.File
	index     *os.File
	data      *os.File
	vol       int32
	metaOff   int64 // bytes written to .meta
	dataOff   int64 // bytes written to the current volume
	// VolumeLimit starts a new volume before a volume reaches it.
	VolumeLimit int64
	results     int // results since the last index entry
	last        time.Time
	buf         []byte
	blocks      []byte // value blocks of the result being encoded
	err         error
	// Records and Bytes count what was written: results, and bytes in
	// all files.
	Records int
	Bytes   int64
}

// Create starts an archive named path (its files path.meta, path.index,
// path.0, ...). It fails if any such file exists already.
func Create(path string, label LogLabel) (*Writer, error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	for _, ext := range []string{".meta", ".index", ".0"} {
		if _, err := os.Lstat(path + ext); err == nil {
			return nil, fmt.Errorf("archive %s exists already", path)
		}
	}
	tmp, err := os.MkdirTemp(dir, "."+base+".partial-")
	if err != nil {
		return nil, err
	}
	w := &Writer{dir: dir, base: base, tmp: tmp, label: label, VolumeLimit: MaxVolume}
	if err := w.open(); err != nil {
		w.Abort()
		return nil, err
	}
	return w, nil
}

// open creates .meta, .index and .0, each headed by the log label, and
// the index entry for the archive's start.
func (w *Writer) open() error {
	var err error
	if w.meta, err = w.create(".meta", VolMeta); err != nil {
		return err
	}
	if w.index, err = w.create(".index", VolIndex); err != nil {
		return err
	}
	if w.data, err = w.create(".0", 0); err != nil {
		return err
	}
	w.metaOff, w.dataOff = labelSize, labelSize
	return w.writeIndex(w.label.Start)
}

// create makes one file of the archive with its label.
func (w *Writer) create(ext string, vol int32) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(w.tmp, w.base+ext), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, err
	}
	l := w.label
	l.Vol = vol
	if _, err := f.Write(AppendLogLabel(nil, l)); err != nil {
		f.Close()
		return nil, err
	}
	w.Bytes += labelSize
	return f, nil
}

// Desc writes a metric descriptor to the metadata.
func (w *Writer) Desc(d Desc) error { return w.writeMeta(AppendDesc(w.buf[:0], d)) }

// InDom writes an instance domain as it is from time at on.
func (w *Writer) InDom(at time.Time, indom uint32, insts []Instance) error {
	return w.writeMeta(AppendInDom(w.buf[:0], at, indom, insts))
}

// Labels writes the label sets of one ident.
func (w *Writer) Labels(at time.Time, typ int32, ident uint32, sets []LabelSet) error {
	rec, err := AppendLabels(w.buf[:0], at, typ, ident, sets)
	if err != nil {
		return w.fail(err)
	}
	return w.writeMeta(rec)
}

// Text writes one help text.
func (w *Writer) Text(typ int32, ident uint32, text string) error {
	return w.writeMeta(AppendText(w.buf[:0], typ, ident, text))
}

func (w *Writer) writeMeta(rec []byte) error {
	w.buf = rec
	if w.err != nil {
		return w.err
	}
	if _, err := w.meta.Write(rec); err != nil {
		return w.fail(err)
	}
	w.metaOff += int64(len(rec))
	w.Bytes += int64(len(rec))
	return nil
}

// Result writes the values of one fetch at time at, which must not be
// before the previous result's: metadata a result needs (the instance
// domain as it is then) must be written before it.
func (w *Writer) Result(at time.Time, sets []ValueSet) error {
	if w.err != nil {
		return w.err
	}
	if at.Before(w.last) {
		return w.fail(fmt.Errorf("result at %s before the previous one at %s", at, w.last))
	}
	rec, blocks, err := appendResult(w.buf[:0], w.blocks, at, sets)
	w.buf, w.blocks = rec, blocks
	if err != nil {
		return w.fail(err)
	}
	if w.dataOff+int64(len(rec)) > w.VolumeLimit && w.dataOff > labelSize {
		if err := w.nextVolume(at); err != nil {
			return err
		}
	} else if w.Records == 0 || w.results >= indexEvery {
		if err := w.writeIndex(at); err != nil {
			return err
		}
	}
	if _, err := w.data.Write(rec); err != nil {
		return w.fail(err)
	}
	w.dataOff += int64(len(rec))
	w.Bytes += int64(len(rec))
	w.Records++
	w.results++
	w.last = at
	return nil
}

// nextVolume closes the current volume and starts the next, indexed from
// the result at time at that goes first into it.
func (w *Writer) nextVolume(at time.Time) error {
	if err := w.data.Close(); err != nil {
		return w.fail(err)
	}
	w.vol++
	f, err := w.create(fmt.Sprintf(".%d", w.vol), w.vol)
	if err != nil {
		return w.fail(err)
	}
	w.data, w.dataOff = f, labelSize
	return w.writeIndex(at)
}

// writeIndex records where the records from time at on begin.
func (w *Writer) writeIndex(at time.Time) error {
	rec := AppendIndex(nil, at, w.vol, w.metaOff, w.dataOff)
	if _, err := w.index.Write(rec); err != nil {
		return w.fail(err)
	}
	w.Bytes += int64(len(rec))
	w.results = 0
	return nil
}

func (w *Writer) fail(err error) error {
	if w.err == nil {
		w.err = err
	}
	return w.err
}

// Commit ends the archive with an index entry at its last result, syncs
// the files and moves them into place, the metadata last: an archive is
// found by its .meta. It returns the archive's path.
func (w *Writer) Commit() (string, error) {
	if w.err == nil && w.Records > 0 {
		w.writeIndex(w.last)
	}
	files := []*os.File{w.data, w.index, w.meta}
	for _, f := range files {
		if err := f.Sync(); err != nil {
			w.fail(err)
		}
		if err := f.Close(); err != nil {
			w.fail(err)
		}
	}
	if w.err != nil {
		w.Abort()
		return "", w.err
	}
	final := filepath.Join(w.dir, w.base)
	var exts []string
	for v := int32(0); v <= w.vol; v++ {
		exts = append(exts, fmt.Sprintf(".%d", v))
	}
	var moved []string
	for _, ext := range append(exts, ".index", ".meta") {
		if err := os.Rename(filepath.Join(w.tmp, w.base+ext), final+ext); err != nil {
			w.fail(err)
			for _, done := range moved {
				os.Remove(done)
			}
			w.Abort()
			return "", w.err
		}
		moved = append(moved, final+ext)
	}
	os.Remove(w.tmp)
	return final, nil
}

// Abort removes everything written so far.
func (w *Writer) Abort() {
	for _, f := range []*os.File{w.data, w.index, w.meta} {
		if f != nil {
			f.Close()
		}
	}
	os.RemoveAll(w.tmp)
	if w.err == nil {
		w.err = errors.New("archive aborted")
	}
}
