package extbot

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"time"
)

// link is a program's end of the protocol: lines to it, lines from it,
// and a way to stop it. A child process and a TCP connection are links.
type link interface {
	io.Reader
	io.Writer
	// SetWriteDeadline bounds writes, so that a program that reads
	// nothing cannot block the game once the pipe or socket is full.
	SetWriteDeadline(t time.Time) error
	// SetReadDeadline bounds the wait for an answer.
	SetReadDeadline(t time.Time) error
	// Close ends the link: the program sees the end of its input and,
	// a child process, is killed if it does not exit soon after.
	Close() error
	// Kill ends the link at once (a program that hangs).
	Kill() error
}

// maxLine bounds a line from a program: a longer one is garbage, and
// ends the link rather than the memory.
const maxLine = 4 << 20

// conn speaks JSON lines over a link. It reads in the caller's
// goroutine, up to a deadline: no reader goroutine, no hand-off, which
// would cost a decision more than the rest of the protocol.
type conn struct {
	l    link
	r    *bufio.Reader
	line []byte // a line begun (kept across a timeout); its array is reused
	err  error  // why reading ended, for good
}

func newConn(l link) *conn {
	return &conn{l: l, r: bufio.NewReaderSize(l, 64<<10)}
}

// errTimeout is a deadline passed while waiting for a line.
var errTimeout = errors.New("no answer in time")

// send writes one line (msg must hold no newline), giving up at
// deadline.
func (c *conn) send(msg []byte, deadline time.Time) error {
	if err := c.l.SetWriteDeadline(deadline); err != nil {
		return err
	}
	msg = append(msg, '\n')
	_, err := c.l.Write(msg)
	return err
}

// receive waits for the next line that is not blank until deadline; the
// line is valid until the next call. It fails with errTimeout (a line
// begun stays for the next call), or with why reading ended (the
// program exited, the connection closed, a line too long).
func (c *conn) receive(deadline time.Time) ([]byte, error) {
	if c.err != nil {
		return nil, c.err
	}
	if err := c.l.SetReadDeadline(deadline); err != nil {
		return nil, err
	}
	for {
		line, err := c.readLine()
		switch {
		case errors.Is(err, os.ErrDeadlineExceeded):
			return nil, errTimeout
		case err == io.EOF:
			c.err = errors.New("the program ended its output (exited or closed the connection)")
			return nil, c.err
		case err != nil:
			c.err = err
			return nil, err
		}
		if len(bytes.TrimSpace(line)) > 0 {
			return line, nil
		}
	}
}

// readLine reads one line of at most maxLine bytes, without its newline.
func (c *conn) readLine() ([]byte, error) {
	for {
		chunk, err := c.r.ReadSlice('\n')
		if len(c.line)+len(chunk) > maxLine {
			return nil, fmt.Errorf("a line longer than %d bytes", maxLine)
		}
		if err == nil && len(c.line) == 0 {
			return chunk[:len(chunk)-1], nil // the usual case: no copy
		}
		c.line = append(c.line, chunk...)
		line := c.line
		switch {
		case err == nil:
			c.line = c.line[:0]
			return line[:len(line)-1], nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == io.EOF && len(line) > 0:
			c.line = c.line[:0]
			return line, nil
		}
		return nil, err // a timeout keeps the line begun
	}
}
