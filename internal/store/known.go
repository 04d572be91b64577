package store

// knownClasses remembers classes the writer has looked up, so a class's
// next puzzles (an import of many ways of writing the same puzzles) are
// filed without a statement: a row of classes, once committed, never
// changes (its first entry stays the first), and no statement deletes one.
// Only what a transaction found is remembered, and only once that
// transaction has committed, so the memory never holds a class that a
// rolled-back transaction started. It belongs to the writer goroutine, like
// every write transaction, and needs no lock.
//
// Looking classes up took a tenth of the writer's time in a million-puzzle
// import whose puzzles are 49,158 puzzles written twenty ways each
// (docs/performance.md).
type knownClasses struct {
	committed map[string]int64 // canonical key -> first id
	found     map[string]int64 // looked up by the transaction under way
	// epoch is the settings row classesEpoch as last read: DeletePuzzle,
	// the one writer that changes or removes a row of classes, rewrites
	// it, and a writer that reads another value forgets every class.
	epoch string
}

// maxKnownClasses bounds the memory: about 5 MB when full. Past it the
// memory is emptied and fills again.
const maxKnownClasses = 1 << 16

func newKnownClasses() *knownClasses {
	return &knownClasses{committed: make(map[string]int64), found: make(map[string]int64)}
}

// first returns the first id of the class of canonical key, if known.
func (k *knownClasses) first(key []byte) (int64, bool) {
	if id, ok := k.committed[string(key)]; ok {
		return id, true
	}
	id, ok := k.found[string(key)]
	return id, ok
}

// saw records that the transaction under way found the class of key.
func (k *knownClasses) saw(key []byte, first int64) {
	k.found[string(key)] = first
}

// end ends the transaction under way: what it found is remembered if it
// committed, forgotten if not.
func (k *knownClasses) end(committed bool) {
	if committed && len(k.found) > 0 {
		if len(k.committed)+len(k.found) > maxKnownClasses {
			clear(k.committed)
		}
		for key, id := range k.found {
			if len(k.committed) == maxKnownClasses {
				break
			}
			k.committed[key] = id
		}
	}
	clear(k.found)
}

// refresh empties the memory when epoch, the archive's classesEpoch,
// is not the one it was filled under.
func (k *knownClasses) refresh(epoch []byte) {
	if string(epoch) != k.epoch {
		clear(k.committed)
		clear(k.found)
		k.epoch = string(epoch)
	}
}

// forget drops the class of key, whose first entry is deleted
// (DeletePuzzle): the class's row changes or goes. Other writers on the
// archive forget it when they read the new classesEpoch (freshClasses).
func (k *knownClasses) forget(key []byte) {
	delete(k.committed, string(key))
	delete(k.found, string(key))
}
