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
  const link = wikiLink(text);
  if (link) return link;
  return scanCells(text);
}

// scanCells is scan without the link: the cells of text as written.
function scanCells(text) {
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

// wikiLink reads a SudokuWiki solver link (…sudokuwiki.org/…?bd=<81
// cells>) at the start of text as its bd parameter's cells, as
// internal/sudoku/sudokuwiki.go does: with or without the scheme or
// "www.", in any case, other parameters around bd; positions count in the
// whole text. It returns null when text is no such link.
function wikiLink(text) {
  const start = text.length - text.trimStart().length;
  const rest = text.slice(start);
  let lower = rest.slice(0, 40).toLowerCase();
  for (const p of ["https://", "http://", "www."]) if (lower.startsWith(p)) lower = lower.slice(p.length);
  if (!lower.startsWith("sudokuwiki.org/")) return null;
  const link = rest.split(/\s/, 1)[0];
  const q = link.indexOf("?");
  const chars = (s) => Array.from(s).length;
  if (q >= 0) {
    let at = q + 1;
    for (const param of link.slice(q + 1).split(/[&#]/)) {
      const i = link.indexOf(param, at);
      at = i + param.length;
      const eq = param.indexOf("=");
      if (eq < 0 || param.slice(0, eq).toLowerCase() !== "bd") continue;
      const before = chars(text.slice(0, start + i + eq + 1));
      const r = scanCells(param.slice(eq + 1));
      if (r.error) r.pos += before, r.error = badCharMessage(r.bad, r.pos);
      return r;
    }
  }
  const pos = chars(text.slice(0, start)) + 1;
  return { cells: [], bad: "", pos, error: `the SudokuWiki link at position ${pos} has no bd=<81 cells> parameter` };
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
