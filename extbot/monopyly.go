package extbot

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	pysdk "github.com/gopoly/gopoly/sdk/python"
)

// Python names the interpreter for the Monopyly host: $GOPOLY_PYTHON, or
// python3 on the PATH.
func Python() string {
	if p := os.Getenv("GOPOLY_PYTHON"); p != "" {
		return p
	}
	return "python3"
}

var (
	sdkOnce sync.Once
	sdkDir  string
	sdkErr  error
)

// sdkPath writes the embedded Python files, once per process, to a
// directory named by their hash under the user's cache directory (or the
// temporary one), so that runs of one build share them and another build
// never runs stale files.
func sdkPath() (string, error) {
	sdkOnce.Do(func() {
		h := sha256.New()
		var files []string
		err := fs.WalkDir(pysdk.Files, ".", func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				files = append(files, p)
				b, _ := pysdk.Files.ReadFile(p)
				fmt.Fprintf(h, "%s %d\n", p, len(b))
				h.Write(b)
			}
			return err
		})
		if err != nil {
			sdkErr = err
			return
		}
		base, err := os.UserCacheDir()
		if err != nil {
			base = os.TempDir()
		}
		dir := filepath.Join(base, "gopoly", "pysdk-"+hex.EncodeToString(h.Sum(nil))[:16])
		if _, err := os.Stat(filepath.Join(dir, ".complete")); err == nil {
			sdkDir = dir
			return
		}
		// Written beside and renamed into place, so that two processes
		// starting at once never run half-written files.
		var tmp string
		if err = os.MkdirAll(filepath.Dir(dir), 0o755); err == nil {
			tmp, err = os.MkdirTemp(filepath.Dir(dir), "pysdk-tmp-")
		}
		if err == nil {
			for _, p := range files {
				b, _ := pysdk.Files.ReadFile(p)
				if err = os.MkdirAll(filepath.Join(tmp, filepath.Dir(p)), 0o755); err != nil {
					break
				}
				if err = os.WriteFile(filepath.Join(tmp, p), b, 0o644); err != nil {
					break
				}
			}
		}
		if err == nil {
			err = os.WriteFile(filepath.Join(tmp, ".complete"), nil, 0o644)
		}
		if err == nil {
			if err = os.Rename(tmp, dir); err != nil {
				if _, e := os.Stat(filepath.Join(dir, ".complete")); e == nil {
					err = nil // another process got there first
				}
				os.RemoveAll(tmp)
			}
		}
		if err != nil {
			sdkErr = fmt.Errorf("extbot: writing the Python host: %w", err)
			return
		}
		sdkDir = dir
	})
	return sdkDir, sdkErr
}

// monopylyCommand is the command that plays the Monopyly AI at path.
func monopylyCommand(path string) (argv, env []string, err error) {
	dir, err := sdkPath()
	if err != nil {
		return nil, nil, err
	}
	return []string{Python(), "-u", filepath.Join(dir, "monopyly_host", "host.py"), path}, []string{"PYTHONDONTWRITEBYTECODE=1"}, nil
}
