package extbot

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync/atomic"
	"time"
)

// closeGrace is how long a program may take to exit once its input ends
// before it is killed.
const closeGrace = 2 * time.Second

// pipes are our ends of a child's stdin and stdout.
type pipes interface {
	io.Reader
	io.Writer
	SetReadDeadline(t time.Time) error
	SetWriteDeadline(t time.Time) error
	CloseWrite() error // the child sees the end of its input
	CloseRead() error
	watch(pid int) // reads end when the child exits, whoever holds its stdout
}

// process is a child process as a link: its stdin and stdout are the
// protocol, its stderr goes line by line to logf.
type process struct {
	pipes
	cmd    *exec.Cmd
	prog   program // what finds the processes it starts
	exited chan struct{}
}

// markerVar names the environment variable that marks the processes of
// a program, which inherit it: when the program's seat ends they are
// ended with it (program.end).
const markerVar = "GOPOLY_EXTBOT_PROGRAM"

var markers atomic.Int64

// startProcess starts argv with extra environment variables in dir (""
// for ours), sending each line of its stderr to logf.
func startProcess(argv, env []string, dir string, logf func(line string)) (*process, error) {
	ours, inR, outW, err := newPipes()
	if err != nil {
		return nil, fmt.Errorf("extbot: %w", err)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, &lineWriter{logf: logf}
	marker := fmt.Sprintf("%d.%d", os.Getpid(), markers.Add(1))
	cmd.Env = append(append(os.Environ(), env...), markerVar+"="+marker)
	cmd.Dir = dir
	// A process the program leaves behind holding stderr open must not
	// hold up the end of the program (Wait), nor outlive it (killTree).
	cmd.WaitDelay = time.Second
	ownGroup(cmd)
	prog, err := startContained(cmd, marker)
	// The child holds its own copies of these ends.
	inR.Close()
	outW.Close()
	if err != nil {
		ours.CloseWrite()
		ours.CloseRead()
		return nil, fmt.Errorf("extbot: starting %q: %w", argv[0], err)
	}
	ours.watch(cmd.Process.Pid) // before Wait can reap it: the pid is still the child's
	p := &process{pipes: ours, cmd: cmd, prog: prog, exited: make(chan struct{})}
	go func() {
		cmd.Wait()
		waited(cmd.Process.Pid)
		close(p.exited)
	}()
	return p, nil
}

// lineWriter hands each line written to it to logf; a line longer than
// maxStderrLine is handed on in pieces.
type lineWriter struct {
	logf func(line string)
	buf  []byte
}

const maxStderrLine = 64 << 10

func (w *lineWriter) Write(b []byte) (int, error) {
	w.buf = append(w.buf, b...)
	for {
		i := bytes.IndexByte(w.buf, '\n')
		if i < 0 && len(w.buf) < maxStderrLine {
			return len(b), nil
		}
		if i < 0 {
			i = maxStderrLine
		}
		w.logf(string(bytes.TrimSuffix(w.buf[:i], []byte("\r"))))
		w.buf = w.buf[min(i+1, len(w.buf)):]
	}
}

// Close ends the program's input and waits closeGrace for it to exit,
// then kills it, and the processes it started.
func (p *process) Close() error {
	p.CloseWrite()
	select {
	case <-p.exited:
	case <-time.After(closeGrace):
		killTree(p.cmd)
		<-p.exited
	}
	p.prog.end()
	p.CloseRead()
	return nil
}

// Kill kills the program at once, and the processes it started.
func (p *process) Kill() error {
	p.CloseWrite()
	// Its processes first, while they still descend from it.
	p.prog.end()
	killTree(p.cmd)
	<-p.exited
	p.CloseRead()
	return nil
}
