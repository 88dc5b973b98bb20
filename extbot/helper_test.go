package extbot_test

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gopoly/gopoly/extbot"
)

// The test binary is also the programs the tests seat: run with
// "extbot-helper MODE", it plays the protocol as MODE says.
func TestMain(m *testing.M) {
	if len(os.Args) == 3 && os.Args[1] == "extbot-helper" {
		if err := helperServe(os.Args[2], os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "helper:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	code := m.Run()
	if goBotPath != "" {
		os.RemoveAll(filepath.Dir(goBotPath)) // built by goBot
	}
	os.Exit(code)
}

// helperBot is the name of a seat played by this binary in mode, with
// options (such as "decision=200ms").
func helperBot(mode, options string) string {
	return fmt.Sprintf("exec:%s %s extbot-helper %s", options, os.Args[0], mode)
}

// helperServe plays games over r and w:
//
//	good     the first of continue, decline, drop_out, ... among the legal actions
//	noisy    good, with a line on stderr per decision
//	crash    good, then exits at its 5th decision
//	hang     good, then stops answering at its 5th decision
//	garbage  good, but every 3rd answer is not JSON
//	illegal  builds on Mediterranean Avenue at every decision
//	slow     good, but its 3rd answer comes late
//	badproto ready with protocol 99
//	lean     good, omitting text, notation, trade and events; it fails
//	         (exits) when a decide holds one of them
//	badomit  ready asking to omit the view
//	orphan   good, but at its 3rd decision starts a process that keeps its
//	         stderr open and sleeps (its pid in $EXTBOT_ORPHAN_PID), then
//	         stops answering
//	sleeper  (the orphan's process) sleeps
//	chatty   good, but its 2nd answer's speech is too long
//	slowstart good, but sleeps 800ms before reading its first message
//	forkexit good, but at its 3rd decision starts a process that holds its
//	         stdout open and sleeps, and exits
//	setsid   good, but at its 2nd decision starts a process in a session
//	         of its own that sleeps (its pid in $EXTBOT_ORPHAN_PID)
//	setsidexit setsid, then exits once it has answered
//
// It writes "refusal CODE" and "retired" to stderr when told.
func helperServe(mode string, r io.Reader, w io.Writer) error {
	if mode == "sleeper" {
		os.WriteFile(os.Getenv("EXTBOT_ORPHAN_PID"), []byte(fmt.Sprint(os.Getpid())), 0o644)
		time.Sleep(time.Hour)
	}
	if mode == "slowstart" {
		time.Sleep(800 * time.Millisecond)
	}
	in := bufio.NewReaderSize(r, 1<<20)
	n := 0
	exit := false
	for {
		line, err := in.ReadBytes('\n')
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		var m struct {
			Type    string `json:"type"`
			ID      int    `json:"id"`
			Options struct {
				Actions []json.RawMessage `json:"actions"`
			} `json:"options"`
			Refusal struct{ Code string } `json:"refusal"`
		}
		if err := json.Unmarshal(line, &m); err != nil {
			return err
		}
		switch m.Type {
		case "start":
			p := extbot.Version
			if mode == "badproto" {
				p = 99
			}
			omit := ""
			switch mode {
			case "lean":
				omit = `,"omit":["text","notation","trade","events"]`
			case "badomit":
				omit = `,"omit":["view"]`
			}
			fmt.Fprintf(w, `{"type":"ready","protocol":%d,"name":"helper-%s"%s}`+"\n", p, mode, omit)
		case "refusal":
			fmt.Fprintln(os.Stderr, "refusal", m.Refusal.Code)
		case "retired":
			fmt.Fprintln(os.Stderr, "retired")
		case "decide":
			n++
			if mode == "lean" {
				var parts map[string]json.RawMessage
				json.Unmarshal(line, &parts)
				var opts map[string]json.RawMessage
				json.Unmarshal(parts["options"], &opts)
				for _, k := range []string{"text", "events"} {
					if parts[k] != nil {
						return fmt.Errorf("lean: decide %d has %s", m.ID, k)
					}
				}
				for _, k := range []string{"notation", "trade"} {
					if opts[k] != nil {
						return fmt.Errorf("lean: decide %d has options.%s", m.ID, k)
					}
				}
			}
			act := pickGood(m.Options.Actions)
			switch {
			case mode == "noisy":
				fmt.Fprintln(os.Stderr, "thinking about decision", m.ID)
			case mode == "crash" && n == 5:
				os.Exit(3)
			case mode == "hang" && n >= 5:
				time.Sleep(time.Hour)
			case mode == "orphan" && n == 3:
				c := exec.Command(os.Args[0], "extbot-helper", "sleeper")
				c.Stderr = os.Stderr
				if err := c.Start(); err != nil {
					return err
				}
				if err := waitPidFile(); err != nil {
					return err
				}
				time.Sleep(time.Hour)
			case mode == "forkexit" && n == 3:
				c := exec.Command(os.Args[0], "extbot-helper", "sleeper")
				c.Stdout = os.Stdout
				if err := c.Start(); err != nil {
					return err
				}
				os.Exit(0)
			case (mode == "setsid" || mode == "setsidexit") && n == 2:
				if err := startSetsid(); err != nil {
					return err
				}
				exit = mode == "setsidexit"
			case mode == "garbage" && n%3 == 0:
				fmt.Fprintln(w, "this is not json")
				continue
			case mode == "illegal":
				act = []byte(`{"kind":"build","square":1}`)
			case mode == "slow" && n == 3:
				time.Sleep(300 * time.Millisecond)
			}
			speech := "helper " + mode
			if mode == "chatty" && n == 2 {
				speech = strings.Repeat("blah ", extbot.MaxSpeech)
			}
			fmt.Fprintf(w, `{"type":"answer","id":%d,"action":%s,"speech":%q}`+"\n", m.ID, act, speech)
			if exit {
				os.Exit(0)
			}
		}
	}
}

// startSetsid starts a sleeper in a session of its own, holding none of
// the program's pipes, and waits for it to write its pid.
func startSetsid() error {
	c := exec.Command(os.Args[0], "extbot-helper", "sleeper")
	c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := c.Start(); err != nil {
		return err
	}
	return waitPidFile()
}

// waitPidFile waits for a sleeper to write its pid, so that the test
// finds it however slowly it starts.
func waitPidFile() error {
	for range 500 {
		if b, _ := os.ReadFile(os.Getenv("EXTBOT_ORPHAN_PID")); len(b) > 0 {
			return nil
		}
		time.Sleep(10 * time.Millisecond)
	}
	return errors.New("the sleeper wrote no pid")
}

// pickGood chooses the first legal action of the kinds that spend
// nothing, else the first listed.
func pickGood(acts []json.RawMessage) json.RawMessage {
	for _, k := range []string{"continue", "decline", "drop_out", "roll_for_doubles", "reject_trade", "keep_mortgaged", "mortgage", "sell_building", "declare_bankruptcy"} {
		for _, a := range acts {
			var h struct{ Kind string }
			if json.Unmarshal(a, &h) == nil && h.Kind == k {
				return a
			}
		}
	}
	return acts[0]
}
