package store

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// fileHolders returns the other processes that hold a POSIX lock on the
// SQLite archive at path or on its -shm: every process that has the
// archive open in WAL mode does, for as long as it has it open, even
// idle (a shared lock on the file's SHARED range, and one on the -shm's
// dead-man byte). Read from /proc/locks, so that no file of the archive
// is opened (and closed) here: closing any descriptor of a file drops
// every POSIX lock this process holds on it, SQLite's own included.
func fileHolders(path string) []int {
	type key struct {
		dev string
		ino uint64
	}
	files := map[key]bool{}
	for _, name := range []string{path, path + "-shm"} {
		var st syscall.Stat_t
		if err := syscall.Stat(name, &st); err != nil {
			continue
		}
		dev := uint64(st.Dev)
		major := (dev>>8)&0xfff | (dev>>32)&^0xfff
		minor := dev&0xff | (dev>>12)&^0xff
		files[key{fmt.Sprintf("%02x:%02x", major, minor), st.Ino}] = true
	}
	locks, err := os.ReadFile("/proc/locks")
	if err != nil || len(files) == 0 {
		return nil
	}
	self := os.Getpid()
	seen := map[int]bool{}
	var pids []int
	for line := range bytes.Lines(locks) {
		// "1: POSIX  ADVISORY  READ 5660 fe:00:9977882 128 128"; a
		// waiter's line has "->" after the number.
		f := strings.Fields(strings.Replace(string(line), "->", "", 1))
		if len(f) < 6 || f[1] != "POSIX" && f[1] != "OFDLCK" {
			continue
		}
		pid, err := strconv.Atoi(f[4])
		at := strings.LastIndexByte(f[5], ':')
		if err != nil || pid <= 0 || pid == self || seen[pid] || at < 0 {
			continue
		}
		ino, err := strconv.ParseUint(f[5][at+1:], 10, 64)
		if err != nil || !files[key{f[5][:at], ino}] {
			continue
		}
		seen[pid] = true
		pids = append(pids, pid)
	}
	return pids
}

// sameProgram reports whether process pid runs this process's executable
// file: a command of this very binary (a second `sudoku serve` started
// with this one), which has this binary's schema, not an older one. An
// upgrade replaces the file, so an older server's is another (deleted)
// file.
func sameProgram(pid int) bool {
	mine, err := os.Stat("/proc/self/exe")
	if err != nil {
		return false
	}
	its, err := os.Stat("/proc/" + strconv.Itoa(pid) + "/exe")
	return err == nil && os.SameFile(mine, its)
}

// commandLine is process pid's command line, and whether its program is
// a sudoku binary (its name begins with "sudoku"); "" when it cannot be
// read (another user's process behind hidepid).
func commandLine(pid int) (string, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil || len(b) == 0 {
		return "", false
	}
	args := strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")
	return strings.Join(args, " "), strings.HasPrefix(filepath.Base(args[0]), "sudoku")
}
