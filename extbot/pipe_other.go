//go:build !linux

package extbot

import (
	"os"
	"os/exec"
	"time"
)

// osPipes are a child's stdin and stdout as Go's own pipes, with their
// deadlines.
type osPipes struct{ w, r *os.File }

// newPipes makes the pipes of a child: ours, and the child's ends for
// exec.Cmd, which the caller closes once the child holds them.
func newPipes() (pipes, *os.File, *os.File, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, nil, nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, nil, nil, err
	}
	return &osPipes{w: inW, r: outR}, inR, outW, nil
}

func (p *osPipes) Read(b []byte) (int, error)         { return p.r.Read(b) }
func (p *osPipes) Write(b []byte) (int, error)        { return p.w.Write(b) }
func (p *osPipes) SetReadDeadline(t time.Time) error  { return p.r.SetReadDeadline(t) }
func (p *osPipes) SetWriteDeadline(t time.Time) error { return p.w.SetWriteDeadline(t) }
func (p *osPipes) CloseWrite() error                  { return p.w.Close() }
func (p *osPipes) CloseRead() error                   { return p.r.Close() }

// watch does nothing here: the end of a program is seen when its
// stdout closes, which a process it started may put off.
func (p *osPipes) watch(int) {}

// ownGroup does nothing here: process groups are Linux's (pipe_poll.go).
func ownGroup(*exec.Cmd) {}

// killTree kills the program.
func killTree(cmd *exec.Cmd) { cmd.Process.Kill() }
