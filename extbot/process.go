package extbot

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
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
}

// process is a child process as a link: its stdin and stdout are the
// protocol, its stderr goes line by line to logf.
type process struct {
	pipes
	cmd    *exec.Cmd
	exited chan struct{}
}

// startProcess starts argv with extra environment variables, sending
// each line of its stderr to logf.
func startProcess(argv, env []string, logf func(line string)) (*process, error) {
	ours, inR, outW, err := newPipes()
	if err != nil {
		return nil, fmt.Errorf("extbot: %w", err)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout = inR, outW
	cmd.Env = append(os.Environ(), env...)
	errR, err := cmd.StderrPipe()
	if err == nil {
		err = cmd.Start()
	}
	// The child holds its own copies of these ends.
	inR.Close()
	outW.Close()
	if err != nil {
		ours.CloseWrite()
		ours.CloseRead()
		return nil, fmt.Errorf("extbot: starting %q: %w", argv[0], err)
	}
	p := &process{pipes: ours, cmd: cmd, exited: make(chan struct{})}
	stderrDone := make(chan struct{})
	go func() {
		defer close(stderrDone)
		sc := bufio.NewScanner(errR)
		sc.Buffer(make([]byte, 64<<10), maxLine)
		for sc.Scan() {
			logf(sc.Text())
		}
	}()
	go func() {
		// Wait must follow the last read of stderr (os/exec's rule).
		<-stderrDone
		cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

// Close ends the program's input and waits closeGrace for it to exit,
// then kills it.
func (p *process) Close() error {
	p.CloseWrite()
	select {
	case <-p.exited:
	case <-time.After(closeGrace):
		p.cmd.Process.Kill()
		<-p.exited
	}
	p.CloseRead()
	return nil
}

// Kill kills the program at once.
func (p *process) Kill() error {
	p.CloseWrite()
	p.cmd.Process.Kill()
	<-p.exited
	p.CloseRead()
	return nil
}
