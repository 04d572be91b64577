package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// cgroupRoot is where the cgroup v1 hierarchies are mounted, one
// directory a controller (cpu, cpuacct).
const cgroupRoot = "/sys/fs/cgroup"

// cgroup is one control group of a cgroup v1 hierarchy made for a
// benchmark: the servers' boxes (controller cpu: a CFS quota each) and the
// meters (cpuacct: the CPU time of PostgreSQL, of the servers).
type cgroup struct{ path string }

// canBox says why this machine cannot box processes, or "" when it can:
// root, with the cgroup v1 cpu and cpuacct controllers mounted writable.
func canBox() string {
	if os.Geteuid() != 0 {
		return "not root: cannot make cgroups"
	}
	for _, f := range []string{"cpu/cpu.cfs_quota_us", "cpuacct/cpuacct.usage"} {
		if _, err := os.Stat(filepath.Join(cgroupRoot, f)); err != nil {
			return "no cgroup v1 " + f + " (cgroup v2 only, or not mounted): " + err.Error()
		}
	}
	probe := filepath.Join(cgroupRoot, "cpu", fmt.Sprintf("sudoku-probe-%d", os.Getpid()))
	if err := os.Mkdir(probe, 0o755); err != nil {
		return "cannot make a cgroup: " + err.Error()
	}
	os.Remove(probe)
	return ""
}

// newCgroup makes the group name under controller; it is removed when tb
// ends, any process left in it moved back to the hierarchy's root first.
func newCgroup(tb testing.TB, controller, name string) *cgroup {
	tb.Helper()
	g := &cgroup{path: filepath.Join(cgroupRoot, controller, fmt.Sprintf("sudoku-bench-%d-%s", os.Getpid(), name))}
	if err := os.Mkdir(g.path, 0o755); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		b, _ := os.ReadFile(filepath.Join(g.path, "cgroup.procs"))
		for _, pid := range strings.Fields(string(b)) {
			os.WriteFile(filepath.Join(cgroupRoot, controller, "cgroup.procs"), []byte(pid), 0o644)
		}
		for range 50 { // a process just killed may take a moment to leave
			if err := os.Remove(g.path); err == nil || errors.Is(err, os.ErrNotExist) {
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	})
	return g
}

// set writes value to the group's file (cpu.cfs_quota_us and the like).
func (g *cgroup) set(tb testing.TB, file, value string) {
	tb.Helper()
	if err := os.WriteFile(filepath.Join(g.path, file), []byte(value), 0o644); err != nil {
		tb.Fatalf("cgroup %s: %v", file, err)
	}
}

// add moves process pid, all its threads, into the group.
func (g *cgroup) add(tb testing.TB, pid int) {
	tb.Helper()
	g.set(tb, "cgroup.procs", strconv.Itoa(pid))
}

// quota boxes the group at cpus of one core: a CFS quota of cpus times
// the 100 ms period.
func (g *cgroup) quota(tb testing.TB, cpus float64) {
	tb.Helper()
	g.set(tb, "cpu.cfs_period_us", "100000")
	g.set(tb, "cpu.cfs_quota_us", strconv.Itoa(int(cpus*100000)))
}

// usage is the CPU time the group's processes used (cpuacct.usage).
func (g *cgroup) usage(tb testing.TB) time.Duration {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join(g.path, "cpuacct.usage"))
	if err != nil {
		tb.Fatal(err)
	}
	ns, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ns)
}

// throttling returns the group's CFS periods and how many of them it was
// throttled in (cpu.stat).
func (g *cgroup) throttling(tb testing.TB) (periods, throttled int64) {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join(g.path, "cpu.stat"))
	if err != nil {
		tb.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		k, v, _ := strings.Cut(line, " ")
		n, _ := strconv.ParseInt(v, 10, 64)
		switch k {
		case "nr_periods":
			periods = n
		case "nr_throttled":
			throttled = n
		}
	}
	return periods, throttled
}

// addTree moves pid and its children (a postmaster's backends and
// helpers) into the group; the processes they start later are born in it.
func (g *cgroup) addTree(tb testing.TB, pid int) {
	tb.Helper()
	g.add(tb, pid)
	dirs, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, f := range dirs {
		b, err := os.ReadFile(f)
		if err != nil {
			continue // gone meanwhile
		}
		// pid (comm) state ppid ...: comm may hold spaces, so read after
		// its closing parenthesis.
		rest := string(b[strings.LastIndexByte(string(b), ')')+1:])
		fields := strings.Fields(rest)
		if len(fields) < 2 || fields[1] != strconv.Itoa(pid) {
			continue
		}
		child, _ := strconv.Atoi(filepath.Base(filepath.Dir(f)))
		os.WriteFile(filepath.Join(g.path, "cgroup.procs"), []byte(strconv.Itoa(child)), 0o644)
	}
}
