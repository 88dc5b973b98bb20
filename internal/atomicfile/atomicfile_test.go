package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

// Write replaces a file whole, with the permissions asked, and leaves no
// temporary file behind, whether it succeeds or fails.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.json")
	for _, c := range []struct {
		data string
		perm os.FileMode
	}{{"first", 0o644}, {"second, longer", 0o600}} {
		if err := Write(path, []byte(c.data), c.perm); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		info, serr := os.Stat(path)
		if err != nil || serr != nil || string(got) != c.data || info.Mode().Perm() != c.perm {
			t.Fatalf("after writing %q with %v: %q %v, %v %v", c.data, c.perm, got, info.Mode().Perm(), err, serr)
		}
	}
	if err := Write(filepath.Join(dir, "no-such-dir", "f"), []byte("x"), 0o644); err == nil {
		t.Error("a file in a missing directory was written")
	}
	if err := os.Mkdir(filepath.Join(dir, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := Write(filepath.Join(dir, "d"), []byte("x"), 0o644); err == nil {
		t.Error("a directory was replaced by a file")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("left in the directory: %v, want f.json and d", entries)
	}
}
