package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Configs are saved checked, listed, shown, played by and deleted; a bad
// rules file is refused with its line and field and saves nothing.
func TestConfigsCmd(t *testing.T) {
	dir := t.TempDir()
	data := []string{"--data", dir}
	good, bad := filepath.Join(dir, "good.yaml"), filepath.Join(dir, "bad.yaml")
	os.WriteFile(good, []byte("max_rounds: 7\nauctions: false\n"), 0o644)
	os.WriteFile(bad, []byte("max_rounds: 7\nauctionz: false\n"), 0o644)

	if _, stderr, code := inProcess(append([]string{"configs", "save", "house", bad}, data...)...); code != 2 || !strings.Contains(stderr, `:2: auctionz: unknown key`) {
		t.Errorf("bad config: exit %d, %q", code, stderr)
	}
	if out, _, _ := inProcess(append([]string{"configs"}, data...)...); !strings.Contains(out, "No saved configs") {
		t.Errorf("a refused config was saved: %q", out)
	}
	if _, stderr, code := inProcess(append([]string{"configs", "save", "house", good, "--name", "House rules"}, data...)...); code != 0 {
		t.Fatalf("save: exit %d, %q", code, stderr)
	}
	if out, _, _ := inProcess(append([]string{"configs"}, data...)...); !strings.Contains(out, "house") || !strings.Contains(out, "House rules") {
		t.Errorf("list: %q", out)
	}
	if out, _, _ := inProcess(append([]string{"configs", "show", "house"}, data...)...); out != "max_rounds: 7\nauctions: false\n" {
		t.Errorf("show: %q", out)
	}
	out, stderr, code := inProcess(append([]string{"play", "--config", "house", "--seed", "2"}, data...)...)
	if code != 0 || !strings.Contains(out, "round limit 7") || strings.Contains(out, "auction") {
		t.Errorf("play --config: exit %d, %q, stdout ends %q", code, stderr, tail(out, 300))
	}
	if _, stderr, code := inProcess(append([]string{"play", "--config", "house", "--rules", good}, data...)...); code != 2 || !strings.Contains(stderr, "give one") {
		t.Errorf("--config with --rules: exit %d, %q", code, stderr)
	}
	if _, _, code := inProcess(append([]string{"configs", "delete", "house"}, data...)...); code != 0 {
		t.Errorf("delete: exit %d", code)
	}
	for _, args := range [][]string{{"configs", "show", "house"}, {"configs", "delete", "house"}, {"play", "--config", "house"}} {
		if _, stderr, code := inProcess(append(args, data...)...); code != 2 || !strings.Contains(stderr, `no config "house"`) {
			t.Errorf("%v after delete: exit %d, %q", args, code, stderr)
		}
	}
}
