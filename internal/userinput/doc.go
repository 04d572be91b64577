// Package userinput is the one reader of numbers users type: ids, whole
// numbers, grades and grade ranges, rates, from query parameters, form
// fields and command-line flags alike (input.go says how). It refuses with
// an *InputError, which record.KindOf classifies as invalid input (400,
// exit 2). It imports nothing of this module.
package userinput
