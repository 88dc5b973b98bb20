package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/gopoly/gopoly/internal/citest"
)

// TestTypeScriptClient plays whole games, standard and speed die, with a
// client on the official TypeScript MCP SDK (testdata/tsclient, pinned
// by its package-lock.json) over stdio: it never passes a token, answers
// only in monopoly-mcp's payloads (JSON-encoded strings in one game,
// objects in the other), validates its arguments against the advertised
// input schemas with ajv, and its SDK validates every tool result
// against the tool's output schema.
func TestTypeScriptClient(t *testing.T) {
	dir := filepath.Join("testdata", "tsclient")
	node, err := exec.LookPath("node")
	if err != nil {
		citest.Missing(t, "no node on CI: .ci/run must install nodejs and npm",
			"no node: the TypeScript client is not tested (CI has it)")
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		citest.Missing(t, "no node_modules in "+dir+" on CI: .ci/run must run npm ci there",
			"no node_modules in "+dir+": the TypeScript client is not tested (cd "+dir+" && npm ci)")
	}
	tb := newTable(t, "")
	for _, game := range []struct {
		seed, form, rules string
	}{{"5", "string", ""}, {"6", "object", "speed_die: true"}} {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		cmd := exec.CommandContext(ctx, node, "play.mjs", game.seed, game.form, game.rules)
		cmd.Dir = dir
		toServer, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		fromServer, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		served := make(chan error, 1)
		go func() {
			served <- tb.srv.ServeStdio(ctx, toServer, fromServer)
			fromServer.Close()
		}()
		err = cmd.Wait()
		cancel()
		<-served
		if err != nil {
			t.Fatalf("rules %q: the client failed: %v\n%s", game.rules, err, stderr.Bytes())
		}
		var end struct {
			Status    string         `json:"status"`
			Decisions int            `json:"decisions"`
			Round     int            `json:"round"`
			Kinds     map[string]int `json:"kinds"`
		}
		lines := bytes.Split(bytes.TrimSpace(stderr.Bytes()), []byte("\n"))
		if err := json.Unmarshal(lines[len(lines)-1], &end); err != nil || end.Status != "completed" || end.Decisions == 0 {
			t.Fatalf("rules %q: the client ended with %s (%v)", game.rules, stderr.Bytes(), err)
		}
		t.Logf("rules %q: %d decisions, round %d, %v", game.rules, end.Decisions, end.Round, end.Kinds)
	}
}
