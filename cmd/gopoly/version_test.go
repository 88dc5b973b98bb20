package main

import (
	"encoding/json"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

// gopoly version, in process: the module, its version and the Go
// version, as text and as JSON. A test binary carries no VCS stamp, so
// the revision is reported unknown; readBuildVersion is checked on a
// stamped build below.
func TestVersionCmd(t *testing.T) {
	stdout, stderr, code := inProcess("version")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	for _, want := range []string{"module    github.com/gopoly/gopoly\n", "version   ", "revision  ", "time      ", "modified  ", "go        " + runtime.Version() + "\n"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("no %q in:\n%s", want, stdout)
		}
	}
	stdout, stderr, code = inProcess("version", "--json")
	var v buildVersion
	if err := json.Unmarshal([]byte(stdout), &v); code != 0 || err != nil {
		t.Fatalf("--json: exit %d, %v, stderr %q:\n%s", code, err, stderr, stdout)
	}
	if v.Module != "github.com/gopoly/gopoly" || v.Version == "" || v.Go != runtime.Version() {
		t.Errorf("--json: %+v", v)
	}
	if _, _, code := inProcess("version", "extra"); code != 2 {
		t.Errorf("version extra: exit %d, want 2", code)
	}
}

func TestReadBuildVersion(t *testing.T) {
	bi := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/gopoly/gopoly", Version: "v1.2.3"},
		Settings: []debug.BuildSetting{{Key: "-compiler", Value: "gc"}, {Key: "vcs", Value: "git"},
			{Key: "vcs.revision", Value: "0123abcd"}, {Key: "vcs.time", Value: "2026-01-02T03:04:05Z"}, {Key: "vcs.modified", Value: "true"}}}
	v := readBuildVersion(bi, true)
	if v.Version != "v1.2.3" || v.Revision != "0123abcd" || v.Time != "2026-01-02T03:04:05Z" || v.Modified == nil || !*v.Modified || v.Go != "go1.26.8" {
		t.Errorf("stamped build: %+v", v)
	}
	b, _ := json.Marshal(v)
	if want := `{"module":"github.com/gopoly/gopoly","version":"v1.2.3","revision":"0123abcd","time":"2026-01-02T03:04:05Z","modified":true,"go":"go1.26.8"}`; string(b) != want {
		t.Errorf("JSON %s, want %s", b, want)
	}
	// A clean tree is "modified": false, not left out.
	bi.Settings[len(bi.Settings)-1].Value = "false"
	if b, _ := json.Marshal(readBuildVersion(bi, true)); !strings.Contains(string(b), `"modified":false`) {
		t.Errorf("clean tree: %s", b)
	}
	if v := readBuildVersion(nil, false); v.Version != "unknown" || v.Go != runtime.Version() || v.Revision != "" || v.Modified != nil {
		t.Errorf("no build information: %+v", v)
	}
}
