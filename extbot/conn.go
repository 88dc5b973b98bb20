package extbot

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
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
	// Close ends the link: the program sees the end of its input and,
	// a child process, is killed if it does not exit soon after.
	Close() error
	// Kill ends the link at once (a program that hangs).
	Kill() error
}

// maxLine bounds a line from a program: a longer one is garbage, and
// ends the link rather than the memory.
const maxLine = 4 << 20

// conn speaks JSON lines over a link. A goroutine reads the lines, so
// that waiting for one can end at a deadline.
type conn struct {
	l     link
	lines chan []byte   // lines read, without their newline
	done  chan struct{} // closed when reading ends
	err   error         // why reading ended; read after done
	timer *time.Timer
}

func newConn(l link) *conn {
	c := &conn{l: l, lines: make(chan []byte, 64), done: make(chan struct{})}
	go c.read()
	return c
}

func (c *conn) read() {
	defer close(c.done)
	r := bufio.NewReaderSize(c.l, 64<<10)
	for {
		line, err := readLine(r)
		if err != nil {
			c.err = err
			return
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		c.lines <- line
	}
}

// readLine reads one line of at most maxLine bytes, in a new slice.
func readLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) > maxLine {
			return nil, fmt.Errorf("a line longer than %d bytes", maxLine)
		}
		line = append(line, chunk...)
		switch {
		case err == nil:
			return line[:len(line)-1], nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == io.EOF && len(line) > 0:
			return line, nil
		default:
			return nil, err
		}
	}
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

// receive waits for the next line until deadline. It fails with
// errTimeout, or with why reading ended (the program exited, the
// connection closed, a line too long).
func (c *conn) receive(deadline time.Time) ([]byte, error) {
	select {
	case line := <-c.lines:
		return line, nil
	default:
	}
	d := time.Until(deadline)
	if d <= 0 {
		return nil, errTimeout
	}
	if c.timer == nil {
		c.timer = time.NewTimer(d)
	} else {
		c.timer.Reset(d)
	}
	defer c.timer.Stop()
	select {
	case line := <-c.lines:
		return line, nil
	case <-c.done:
		// Lines read before the end still count.
		select {
		case line := <-c.lines:
			return line, nil
		default:
		}
		if c.err == io.EOF {
			return nil, errors.New("the program ended its output (exited or closed the connection)")
		}
		return nil, c.err
	case <-c.timer.C:
		return nil, errTimeout
	}
}

// alive reports whether the program can still be read from.
func (c *conn) alive() bool {
	select {
	case <-c.done:
		return len(c.lines) > 0
	default:
		return true
	}
}
