package web

// DBParts lets the external tests (package web_test) build a server over a
// real archive with every part, as cmd/sudoku does.
var DBParts = dbParts
