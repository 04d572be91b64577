package main

import (
	"os"
	"strings"
	"testing"
)

// TestReadmeCountsCommands (issue 45): README's "with N commands" is the
// number of commands `sudoku help` lists.
func TestReadmeCountsCommands(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	words := []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
		"eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"}
	if len(commands) >= len(words) {
		t.Fatalf("%d commands: name the number", len(commands))
	}
	if want := "with " + words[len(commands)] + " commands"; !strings.Contains(string(b), want) {
		t.Errorf("README does not say %q", want)
	}
}
