//go:build !linux

package extbot

import "os/exec"

// program finds nothing here: only a program's process group, where
// there is one, is ended with it (killTree).
type program struct{}

// startContained starts cmd.
func startContained(cmd *exec.Cmd, _ string) (program, error) { return program{}, cmd.Start() }

// waited does nothing here.
func waited(int) {}

// end does nothing here.
func (program) end() {}
