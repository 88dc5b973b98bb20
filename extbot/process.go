package extbot

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"time"
)

// closeGrace is how long a program may take to exit once its input ends
// before it is killed.
const closeGrace = 2 * time.Second

// process is a child process as a link: its stdin and stdout are the
// protocol, its stderr goes line by line to logf.
type process struct {
	cmd    *exec.Cmd
	stdin  *os.File // our end: writes, with deadlines
	stdout *os.File // our end: reads
	exited chan struct{}
}

// startProcess starts argv with extra environment variables, sending
// each line of its stderr to logf.
func startProcess(argv, env []string, logf func(line string)) (*process, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("extbot: %w", err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
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
		inW.Close()
		outR.Close()
		return nil, fmt.Errorf("extbot: starting %q: %w", argv[0], err)
	}
	p := &process{cmd: cmd, stdin: inW, stdout: outR, exited: make(chan struct{})}
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

func (p *process) Read(b []byte) (int, error)         { return p.stdout.Read(b) }
func (p *process) Write(b []byte) (int, error)        { return p.stdin.Write(b) }
func (p *process) SetWriteDeadline(t time.Time) error { return p.stdin.SetWriteDeadline(t) }

// Close ends the program's input and waits closeGrace for it to exit,
// then kills it.
func (p *process) Close() error {
	p.stdin.Close()
	select {
	case <-p.exited:
	case <-time.After(closeGrace):
		p.cmd.Process.Kill()
		<-p.exited
	}
	p.stdout.Close()
	return nil
}

// Kill kills the program at once.
func (p *process) Kill() error {
	p.stdin.Close()
	p.cmd.Process.Kill()
	<-p.exited
	p.stdout.Close()
	return nil
}
