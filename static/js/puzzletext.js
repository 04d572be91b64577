// The puzzle text reader, with the rules of internal/sudoku/parse.go:
// 81 cells row by row, digits 1-9, blanks as 0 or '.'; white space and the
// grid drawing characters | - + = are ignored anywhere. Positions count
// characters (code points) from 1, as the Go reader does, so the browser and
// the server point at the same character.

const IGNORED = new Set([" ", "\t", "\n", "\r", "\v", "\f", "|", "-", "+", "="]);

// quote writes a character the way Go's %q writes a rune: 'x', '\'', '\\'.
function quote(ch) {
  if (ch === "'" || ch === "\\") return `'\\${ch}'`;
  return `'${ch}'`;
}

// badCharMessage is the Go reader's message for a character that is no cell.
export function badCharMessage(ch, pos) {
  const code = ch.codePointAt(0);
  if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) {
    return `control character U+${code.toString(16).toUpperCase().padStart(4, "0")} at position ${pos}`;
  }
  return `${quote(ch)} at position ${pos} is not a cell (cells are 1-9, with 0 or . for a blank)`;
}

// scan reads cells up to the first character that is no cell. It returns
// {cells: [0-9, ...]} and, at such a character, also {bad, pos, error}
// (pos 1-based). It reads past 81 cells, so a caller can count them.
export function scan(text) {
  const cells = [];
  let pos = 0;
  for (const ch of text) {
    pos++;
    if (IGNORED.has(ch)) continue;
    if (ch >= "1" && ch <= "9") cells.push(ch.charCodeAt(0) - 48);
    else if (ch === "0" || ch === ".") cells.push(0);
    else return { cells, bad: ch, pos, error: badCharMessage(ch, pos) };
  }
  return { cells };
}

// parse reads a whole puzzle: {cells} with exactly 81 cells, or {error}
// with the Go reader's message ("expected 81 cells, got 80",
// "'x' at position 12 is not a cell ...").
export function parse(text) {
  const r = scan(text);
  if (r.error) return { error: r.error, pos: r.pos };
  if (r.cells.length !== 81) return { error: `expected 81 cells, got ${r.cells.length}` };
  return { cells: r.cells };
}

// format writes 81 cells in the canonical form: '.' for blanks.
export function format(cells) {
  let s = "";
  for (const v of cells) s += v ? String(v) : ".";
  return s;
}
