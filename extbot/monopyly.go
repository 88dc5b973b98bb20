package extbot

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
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
		dir := filepath.Join(cacheDir(), "gopoly", "pysdk-"+hex.EncodeToString(h.Sum(nil))[:16])
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

// monopylyCheckout returns the root of the Monopyly checkout that dir
// names: the directory holding the monopyly package, or the package
// directory itself.
func monopylyCheckout(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if dir == "" || err != nil {
		return "", errors.New("want a Monopyly checkout, the directory holding monopyly/__init__.py")
	}
	if isFile(filepath.Join(abs, "monopyly", "__init__.py")) {
		return abs, nil
	}
	if filepath.Base(abs) == "monopyly" && isFile(filepath.Join(abs, "__init__.py")) {
		return filepath.Dir(abs), nil
	}
	return "", fmt.Errorf("%s holds no monopyly package (monopyly/__init__.py): want a Monopyly checkout", abs)
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// monopylyCommand is the command that plays the Monopyly AI of s, and
// the directory it runs in: s.Dir, or one of its own under the user's
// cache directory (some AIs write files where they run). The AI and the
// checkout are named by absolute paths, which hold wherever it runs.
func monopylyCommand(s Spec) (argv, env []string, dir string, err error) {
	sdk, err := sdkPath()
	if err != nil {
		return nil, nil, "", err
	}
	path, class, _ := strings.Cut(s.Target, "#")
	if path, err = filepath.Abs(path); err != nil {
		return nil, nil, "", fmt.Errorf("extbot: monopyly: %w", err)
	}
	target := path
	if class != "" {
		target += "#" + class
	}
	argv = []string{Python(), "-u", filepath.Join(sdk, "monopyly_host", "host.py")}
	if s.Pkg != "" {
		argv = append(argv, "--pkg", s.Pkg)
	}
	argv = append(argv, target)
	if dir = s.Dir; dir == "" {
		dir = filepath.Join(cacheDir(), "gopoly", "monopyly-runs", runDirName(target))
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, "", fmt.Errorf("extbot: monopyly: the AI's working directory: %w", err)
	}
	// Bytecode is kept, for a quick start, but in gopoly's cache rather
	// than beside the user's files.
	// A fixed hash seed keeps the iteration order of the AI's sets of
	// strings the same from run to run: with random seeded from the
	// seat's seed (host.py), the same run seed plays the same games.
	env = []string{"PYTHONDONTWRITEBYTECODE=", "PYTHONPYCACHEPREFIX=" + filepath.Join(cacheDir(), "gopoly", "pycache"), "PYTHONHASHSEED=0"}
	return argv, env, dir, nil
}

// runDirName names an AI's working directory: readable, and apart for
// every AI path and class.
func runDirName(target string) string {
	h := sha256.Sum256([]byte(target))
	path, class, _ := strings.Cut(target, "#")
	name := filepath.Base(path)
	if class != "" {
		name += "-" + class
	}
	clean := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '.' {
			return r
		}
		return '_'
	}, name)
	return clean + "-" + hex.EncodeToString(h[:])[:12]
}

// cacheDir is the user's cache directory, or the temporary one.
func cacheDir() string {
	if base, err := os.UserCacheDir(); err == nil {
		return base
	}
	return os.TempDir()
}
