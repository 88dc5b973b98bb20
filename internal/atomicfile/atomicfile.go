// Package atomicfile writes a file whole or not at all.
package atomicfile

import (
	"os"
	"path/filepath"
)

// TempPrefix begins the name of every temporary file Write makes: a
// directory holding only such files holds nothing finished.
const TempPrefix = ".tmp-"

// Write writes data to path with permissions perm through a temporary
// file in the same directory and a rename, so that a crash, or a reader
// at any moment, finds the old file or the new one, never part of one;
// two writers at once each write their own temporary file, and the last
// rename wins.
func Write(path string, data []byte, perm os.FileMode) error {
	f, err := os.CreateTemp(filepath.Dir(path), TempPrefix+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	err = f.Chmod(perm)
	if err == nil {
		_, err = f.Write(data)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}
