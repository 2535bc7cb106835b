// Package regularfile reads small files the agent is told about (its
// configuration, its instance-id maps) without ever blocking on them.
package regularfile

import (
	"fmt"
	"io"
	"os"
	"syscall"
)

// Read returns the contents of the regular file at path, of at most limit
// bytes. It opens with O_NONBLOCK, so a FIFO or device put in the file's
// place is refused at once instead of stalling the caller, and it refuses
// a file larger than limit, even one that grows while it is read. Errors
// name the path.
func Read(path string, limit int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	if st.Size() > limit {
		return nil, tooLarge(path, limit)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if int64(len(data)) > limit {
		return nil, tooLarge(path, limit)
	}
	return data, nil
}

func tooLarge(path string, limit int64) error {
	return fmt.Errorf("%s is larger than %d bytes", path, limit)
}
