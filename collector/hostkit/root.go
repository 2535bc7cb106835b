package hostkit

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/pmdahostcache/pmdahostcache/engine"
)

// CheckDir fails unless dir is a directory, so a bad /proc or /sys root
// fails at start-up rather than on every sample.
func CheckDir(dir string) error {
	if dir == "" {
		return errors.New("no root directory")
	}
	st, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if !st.IsDir() {
		return fmt.Errorf("%s is not a directory", dir)
	}
	return nil
}

// ProcFile returns the path of file name below the /proc root, for the
// collectors that read one file, after checking the root.
func ProcFile(env engine.Env, name string) (string, error) {
	if err := CheckDir(env.Proc); err != nil {
		return "", fmt.Errorf("proc root: %w", err)
	}
	return filepath.Join(env.Proc, name), nil
}
