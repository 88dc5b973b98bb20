//go:build !linux

package extbot

import "os/exec"

// startContained starts cmd. Here only its process group, where there
// is one, is ended with it (killTree).
func startContained(cmd *exec.Cmd) error { return cmd.Start() }

// waited does nothing here.
func waited(int) {}

// endProcesses does nothing here.
func endProcesses(string) {}
