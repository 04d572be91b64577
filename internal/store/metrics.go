package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// PoolStats returns the statistics of the database's connection pools, by
// name: "writer" (the writer goroutine's) and "reader" (the reads'), for
// the operator's metrics (serve --metrics-addr).
func (db *DB) PoolStats() map[string]sql.DBStats {
	return map[string]sql.DBStats{"writer": db.writer.Stats(), "reader": db.reader.Stats()}
}

// GradeQueue returns how many rows wait for a grade and when the oldest
// of them was submitted (the zero time when none waits): the grading
// pipeline's backlog, for the operator's metrics. Both reads walk the
// puzzles_pending index, which holds only the waiting rows.
func (db *DB) GradeQueue(ctx context.Context) (n int64, oldest time.Time, err error) {
	if n, err = db.CountUngraded(ctx); err != nil || n == 0 {
		return n, time.Time{}, err
	}
	var at int64
	err = db.reader.QueryRowContext(ctx, "SELECT submitted_at FROM puzzles"+db.d.indexedBy("puzzles_pending")+
		" WHERE grade_version IS NULL AND "+visible+" ORDER BY id LIMIT 1").Scan(&at)
	if errors.Is(err, sql.ErrNoRows) {
		return n, time.Time{}, nil // graded since it was counted
	}
	if err != nil {
		return n, time.Time{}, fmt.Errorf("read the oldest ungraded row: %w", err)
	}
	return n, time.Unix(0, at), nil
}
