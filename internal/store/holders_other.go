//go:build !linux

package store

// fileHolders finds the processes that have an archive open through
// Linux's /proc/locks; elsewhere it finds none, and the gate has only
// the servers table.
func fileHolders(string) []int { return nil }

// commandLine reads Linux's /proc.
func commandLine(int) (string, bool) { return "", false }

// sameProgram reads Linux's /proc.
func sameProgram(int) bool { return false }
