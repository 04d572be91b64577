package store

// dataerr.go tells the database's refusals of a request's own data (a
// text PostgreSQL cannot hold, a value too long for an index) from its
// failures (a full disk, no memory): the first are the asker's to mend (a
// 400 or 422 about the value), the second the archive's (a 503). Issue
// 45: a login name of 3,000 letters made an index row over PostgreSQL's
// limit (SQLSTATE 54000, program_limit_exceeded), which was read as a
// full disk, answered "storage full" and put a false warning in the log.

import (
	"fmt"
	"regexp"
	"time"

	sqlite3 "modernc.org/sqlite/lib"

	"github.com/sudoku-archive/sudoku/internal/record"
)

// DataError is a value of a request that the database refused: its text
// is meant for users, its kind is KindInvalid (a character the database
// cannot store) or KindUnprocessable (a value too long).
type DataError struct {
	msg  string
	kind record.Kind
}

func (e *DataError) Error() string { return e.msg }

// Kind is what the error means to whoever asked.
func (e *DataError) Kind() record.Kind { return e.kind }

// ForUsers marks the text as meant for users.
func (e *DataError) ForUsers() bool { return true }

// errResources is PostgreSQL out of memory or of connections: the
// archive's trouble, temporary, not a full disk.
var errResources error = &UnavailableError{msg: "database server out of memory or connections", retry: 5 * time.Second, kind: record.KindUnavailable}

// indexOf finds the index named in PostgreSQL's message of an index row
// over its size limit.
var indexOf = regexp.MustCompile(`for index "([^"]+)"`)

// indexFields names the field of a request behind each index of text that
// a request's value can reach.
var indexFields = map[string]string{
	"players_name_key":          "name",
	"collections_name_key":      "name",
	"players_name_skeleton":     "name",
	"collections_name_skeleton": "name",
	"login_failures_name":       "name",
	"login_failures_device":     "device",
}

// dataFault returns err described as the DataError or resource error it
// is, or nil when it is neither.
func dataFault(err error) error {
	if sqliteCode(err) == sqlite3.SQLITE_TOOBIG {
		return fmt.Errorf("%w: %w", &DataError{"a value is too long to be stored: shorten it", record.KindUnprocessable}, err)
	}
	switch pgCode(err) {
	case "54000": // program_limit_exceeded: an index row, a statement, a value over a limit
		msg := "a value is too long to be stored: shorten it"
		if m := indexOf.FindStringSubmatch(err.Error()); m != nil {
			if f, ok := indexFields[m[1]]; ok {
				msg = fmt.Sprintf("%q is too long to be stored: shorten it", f)
			} else {
				msg = fmt.Sprintf("a value is too long for the archive's index %s: shorten it", m[1])
			}
		}
		return fmt.Errorf("%w: %w", &DataError{msg, record.KindUnprocessable}, err)
	case "22021", "22P05": // a NUL or a character the encoding cannot hold
		return fmt.Errorf("%w: %w", &DataError{"a text holds a character that cannot be stored (NUL)", record.KindInvalid}, err)
	case "53200", "53300": // out of memory, too many connections
		return fmt.Errorf("%w: %w", errResources, err)
	}
	return nil
}
