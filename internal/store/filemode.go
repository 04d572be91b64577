package store

import (
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"os"
)

// privateFiles makes an existing archive and its -wal and -shm readable by
// their owner only (fileMode), as a new archive and every copy of `sudoku
// backup` are: archives made by older binaries stayed 0644, password
// hashes inside (issue 50). SQLite gives new -wal and -shm files the main
// file's mode, so they follow. It logs each file it changes; a file it
// cannot change (another owner, a read-only mount) is a warning, not a
// failure: the archive opens as before.
func privateFiles(ctx context.Context, path string) {
	log := openOptions(ctx).Logger
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		fi, err := os.Stat(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil || fi.Mode().Perm()&^fileMode == 0 {
			continue
		}
		if err := os.Chmod(p, fi.Mode().Perm()&fileMode); err != nil {
			log.Warn("archive file readable by others: cannot restrict it to its owner", slog.String("file", p),
				slog.String("mode", fi.Mode().Perm().String()), slog.Any("err", err))
			continue
		}
		log.Info("archive file restricted to its owner (was readable by others)", slog.String("file", p),
			slog.String("from", fi.Mode().Perm().String()), slog.String("to", (fi.Mode().Perm()&fileMode).String()))
	}
}

// privateOnceOpen runs privateFiles once the file has opened as an archive
// (*err nil): a --db that names some other file (a typo, a text file)
// keeps its mode, and serve's refusal of it stays the one line it was.
func privateOnceOpen(ctx context.Context, path string, err *error) {
	if *err == nil {
		privateFiles(ctx, path)
	}
}
