//go:build linux

package extbot

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// pollPipes are a child's stdin and stdout as raw descriptors, waited on
// with poll(2) in the calling goroutine's thread. Go's own pipes wait in
// its network poller, whose wake-up (another thread finds the ready
// descriptor, then schedules the reader) costs more per decision than
// all the rest of the protocol on our side.
type pollPipes struct {
	w, r     int // our ends: the child's stdin (non-blocking), its stdout
	pidfd    int // the child itself (watch), or -1
	wdl, rdl time.Time
	quick    bool // the last answer came within spinFor
	fds      [2]unix.PollFd
}

// spinFor is how long a read polls without sleeping for a program that
// answered the last time within it. A thread that sleeps is woken by the
// kernel (on a virtual machine, its CPU by the hypervisor), which costs
// tens of microseconds, more than a quick program takes to answer; a
// slow program gets no spinning, so it costs no CPU.
const spinFor = 50 * time.Microsecond

// newPipes makes the pipes of a child: ours, and the child's ends for
// exec.Cmd, which the caller closes once the child holds them.
func newPipes() (pipes, *os.File, *os.File, error) {
	var in, out [2]int
	if err := syscall.Pipe2(in[:], syscall.O_CLOEXEC); err != nil {
		return nil, nil, nil, err
	}
	if err := syscall.Pipe2(out[:], syscall.O_CLOEXEC); err != nil {
		syscall.Close(in[0])
		syscall.Close(in[1])
		return nil, nil, nil, err
	}
	// A write waits for room with poll, up to its deadline.
	if err := unix.SetNonblock(in[1], true); err != nil {
		for _, fd := range []int{in[0], in[1], out[0], out[1]} {
			syscall.Close(fd)
		}
		return nil, nil, nil, err
	}
	return &pollPipes{w: in[1], r: out[0], pidfd: -1}, os.NewFile(uintptr(in[0]), "stdin"), os.NewFile(uintptr(out[1]), "stdout"), nil
}

func (p *pollPipes) SetReadDeadline(t time.Time) error  { p.rdl = t; return nil }
func (p *pollPipes) SetWriteDeadline(t time.Time) error { p.wdl = t; return nil }

// watch makes reads see the end of the output when the child pid
// exits, though a process it started may hold its stdout open: that
// process is not the program, and would otherwise keep the seat waiting
// for the whole decision budget.
func (p *pollPipes) watch(pid int) {
	if fd, err := unix.PidfdOpen(pid, 0); err == nil {
		p.pidfd = fd // readable once the process has exited
	}
}

// wait polls fds until one is ready, or deadline.
func wait(fds []unix.PollFd, deadline time.Time) error {
	for {
		ms := -1
		if !deadline.IsZero() {
			d := time.Until(deadline)
			if d <= 0 {
				return os.ErrDeadlineExceeded
			}
			ms = int(min((d+time.Millisecond-1)/time.Millisecond, math.MaxInt32))
		}
		n, err := unix.Poll(fds, ms)
		switch {
		case errors.Is(err, syscall.EINTR):
			continue
		case err != nil:
			return fmt.Errorf("poll: %w", err)
		case n > 0:
			return nil // ready, or hung up or in error: the read or write says which
		}
	}
}

// spin polls fd without sleeping for up to spinFor from began, and
// reports whether it became readable.
func spin(fds []unix.PollFd, began time.Time) bool {
	for time.Since(began) < spinFor {
		if n, _ := unix.Poll(fds, 0); n > 0 {
			return true
		}
	}
	return false
}

func (p *pollPipes) Read(b []byte) (int, error) {
	if p.r < 0 {
		return 0, os.ErrClosed
	}
	began := time.Now()
	p.fds[0] = unix.PollFd{Fd: int32(p.r), Events: unix.POLLIN}
	if !p.quick || !spin(p.fds[:1], began) {
		fds := p.fds[:1]
		if p.pidfd >= 0 {
			p.fds[1] = unix.PollFd{Fd: int32(p.pidfd), Events: unix.POLLIN}
			fds = p.fds[:2]
		}
		if err := wait(fds, p.rdl); err != nil {
			return 0, err
		}
		if len(fds) == 2 && fds[0].Revents == 0 {
			// The program has exited and left nothing to read.
			return 0, io.EOF
		}
	}
	p.quick = time.Since(began) < spinFor
	for {
		n, err := syscall.Read(p.r, b)
		switch {
		case errors.Is(err, syscall.EINTR):
			continue
		case err != nil:
			return 0, err
		case n == 0 && len(b) > 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

func (p *pollPipes) Write(b []byte) (int, error) {
	if p.w < 0 {
		return 0, os.ErrClosed
	}
	done := 0
	for done < len(b) {
		n, err := syscall.Write(p.w, b[done:])
		if n > 0 {
			done += n
		}
		switch {
		case errors.Is(err, syscall.EAGAIN):
			if err := wait([]unix.PollFd{{Fd: int32(p.w), Events: unix.POLLOUT}}, p.wdl); err != nil {
				return done, err
			}
		case errors.Is(err, syscall.EINTR):
		case err != nil:
			return done, err
		}
	}
	return done, nil
}

func (p *pollPipes) CloseWrite() error { return closeFD(&p.w) }
func (p *pollPipes) CloseRead() error  { closeFD(&p.pidfd); return closeFD(&p.r) }

func closeFD(fd *int) error {
	if *fd < 0 {
		return nil
	}
	err := syscall.Close(*fd)
	*fd = -1
	return err
}

// ownGroup starts the program in a process group of its own, so that
// killTree ends whatever it started too.
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// killTree kills the program and every process of its group.
func killTree(cmd *exec.Cmd) {
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		cmd.Process.Kill()
	}
}
