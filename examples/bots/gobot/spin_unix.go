//go:build unix

package main

import (
	"errors"
	"io"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// input is gobot's stdin. When it is a pipe (gopoly's exec: seats) and
// spin is positive, each read first polls it without sleeping for up to
// spin: gopoly's next message usually comes within a few microseconds,
// and a process that sleeps in read is woken by the kernel (on a virtual
// machine, its CPU by the hypervisor), which costs tens of microseconds.
// It then waits as any read does.
func input(spin time.Duration) io.Reader {
	var st unix.Stat_t
	if spin <= 0 || unix.Fstat(0, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFIFO {
		return os.Stdin
	}
	return spinReader(spin)
}

type spinReader time.Duration

func (r spinReader) Read(b []byte) (int, error) {
	fds := []unix.PollFd{{Fd: 0, Events: unix.POLLIN}}
	for began, timeout := time.Now(), 0; ; {
		n, err := unix.Poll(fds, timeout)
		if err != nil && !errors.Is(err, unix.EINTR) {
			return 0, err
		}
		if n > 0 {
			break
		}
		if time.Since(began) >= time.Duration(r) {
			timeout = -1 // sleep until there is input
		}
	}
	for {
		n, err := unix.Read(0, b)
		switch {
		case errors.Is(err, unix.EINTR):
			continue
		case err != nil:
			return 0, err
		case n == 0 && len(b) > 0:
			return 0, io.EOF
		}
		return n, nil
	}
}
