//go:build linux

package extbot

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// A program may start processes that leave its process group (setsid,
// a daemon's double fork), which killing the group misses, and which
// outlive it. Two things find them when its seat ends:
//
//   - gopoly is a child subreaper (prctl PR_SET_CHILD_SUBREAPER): a
//     process whose parent exits is adopted by gopoly, not by init, so it
//     stays within reach, and gopoly reaps it once it is killed;
//   - every program is started with markerVar set to a value of its own,
//     which the processes it starts inherit with the rest of its
//     environment: they are found in /proc by it, and with them the
//     processes that descend from them (one that cleared its environment
//     still has a marked ancestor while that ancestor lives).
//
// A process that both clears its environment and outlives its marked
// ancestors escapes; so does one in another user's name. A cgroup per
// program would hold them all, but is seldom writable by an unprivileged
// user.

var (
	// contain is held while a program starts and while orphans are
	// reaped, so that the reaper never takes a program (which its
	// exec.Cmd waits for) for an orphan: a program is in programs from
	// before anyone could see it exit.
	contain   sync.Mutex
	programs  = map[int]bool{}
	subreaper sync.Once
)

// program finds the processes of a program: those that carry its
// marker, and their descendants.
type program struct {
	marker string
	// start is when it started, in clock ticks since boot as /proc
	// gives it: its processes started no earlier, and only their
	// environments need reading.
	start uint64
}

// startContained starts cmd, which must carry marker in its
// environment, as a program whose processes program.end ends.
func startContained(cmd *exec.Cmd, marker string) (program, error) {
	subreaper.Do(func() { unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) })
	contain.Lock()
	defer contain.Unlock()
	if err := cmd.Start(); err != nil {
		return program{}, err
	}
	programs[cmd.Process.Pid] = true
	// Not yet reaped, so still there to read (start 0 if not: every
	// process is then read).
	p, _ := readStat(cmd.Process.Pid)
	return program{marker: marker, start: p.start}, nil
}

// waited forgets a program its exec.Cmd has reaped.
func waited(pid int) {
	contain.Lock()
	delete(programs, pid)
	contain.Unlock()
}

// endDeadline bounds how long end waits for what it killed to
// be gone: a process stuck in the kernel may take its time to die, and
// the next seat's end reaps it.
const endDeadline = 2 * time.Second

// end kills the processes carrying the program's marker (the program
// among them, if it still runs) and their descendants, and reaps those
// gopoly adopted, with the other orphans it adopted that have died
// since.
func (pr program) end() {
	killed := map[int]bool{}
	for deadline := time.Now().Add(endDeadline); ; time.Sleep(2 * time.Millisecond) {
		procs := readProcs()
		for _, pid := range pr.processes(procs) {
			if unix.Kill(pid, unix.SIGKILL) == nil {
				killed[pid] = true
			}
		}
		left := reapOrphans(procs, killed)
		if !left || time.Now().After(deadline) {
			return
		}
	}
}

// proc is a line of /proc/PID/stat.
type proc struct {
	pid, ppid, pgrp int
	zombie          bool
	start           uint64 // clock ticks after boot
}

// readProcs lists the processes in /proc.
func readProcs() []proc {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	procs := make([]proc, 0, len(ents))
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if p, ok := readStat(pid); ok {
			procs = append(procs, p)
		}
	}
	return procs
}

// readStat reads a process's state, parent, group and start time: the
// fields after its name, which is in parentheses and may hold anything.
func readStat(pid int) (proc, bool) {
	var buf [1024]byte
	b, err := readSmall("/proc/"+strconv.Itoa(pid)+"/stat", buf[:])
	i := bytes.LastIndexByte(b, ')')
	if err != nil || i < 0 {
		return proc{}, false
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 20 {
		return proc{}, false
	}
	ppid, err1 := strconv.Atoi(string(f[1]))
	pgrp, err2 := strconv.Atoi(string(f[2]))
	start, err3 := strconv.ParseUint(string(f[19]), 10, 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return proc{}, false
	}
	return proc{pid: pid, ppid: ppid, pgrp: pgrp, zombie: f[0][0] == 'Z', start: start}, true
}

// readSmall reads a file of /proc that fits buf in one read: os.ReadFile
// would also stat it, which costs as much again, for every process.
func readSmall(path string, buf []byte) ([]byte, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	n, err := unix.Read(fd, buf)
	if err != nil {
		return nil, err
	}
	return buf[:n], nil
}

// marked reports whether process pid was started with marker (a
// zombie's environment can no longer be read).
func marked(pid int, marker string) bool {
	env, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return false
	}
	want := []byte(markerVar + "=" + marker)
	for v := range bytes.SplitSeq(env, []byte{0}) {
		if bytes.Equal(v, want) {
			return true
		}
	}
	return false
}

// processes returns the living processes that carry the program's
// marker or descend from one that does.
func (pr program) processes(procs []proc) []int {
	self := os.Getpid()
	in := map[int]bool{}
	for _, p := range procs {
		if !p.zombie && p.pid != self && p.start >= pr.start && marked(p.pid, pr.marker) {
			in[p.pid] = true
		}
	}
	for grew := len(in) > 0; grew; {
		grew = false
		for _, p := range procs {
			if !in[p.pid] && !p.zombie && p.pid != self && in[p.ppid] {
				in[p.pid], grew = true, true
			}
		}
	}
	pids := make([]int, 0, len(in))
	for pid := range in {
		pids = append(pids, pid)
	}
	return pids
}

// reapOrphans reaps the dead children of gopoly that it adopted: those
// in killed, and those outside its process group that are not programs
// (an orphan that died before it could be told by its marker; the
// programs, and the commands gopoly itself runs, which stay in its
// group, are waited for by their exec.Cmd). It reports whether a process
// of killed is still to be reaped (or still to die).
func reapOrphans(procs []proc, killed map[int]bool) bool {
	self, group := os.Getpid(), unix.Getpgrp()
	contain.Lock()
	defer contain.Unlock()
	left := false
	for _, p := range procs {
		ours := p.ppid == self && !programs[p.pid]
		switch {
		case p.zombie && ours && (killed[p.pid] || p.pgrp != group):
			// A process whose other threads are still exiting shows as a
			// zombie before it can be waited for: the next pass reaps it.
			var ws unix.WaitStatus
			wpid, err := unix.Wait4(p.pid, &ws, unix.WNOHANG, nil)
			if wpid != p.pid && !errors.Is(err, unix.ECHILD) {
				left = left || killed[p.pid]
			}
		case killed[p.pid] && !programs[p.pid] && (!p.zombie || p.ppid == self || killed[p.ppid] || programs[p.ppid]):
			left = true // dying, or dead with a parent that is dying: adopted next
		}
	}
	return left
}
