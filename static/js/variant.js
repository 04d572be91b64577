// Sudoku Archive: a variant's rules on the playing board (play.js). The
// page carries the rules in the archive's written form (data-rules,
// docs/variants.md) and each rule's name (data-rule-names, Go's
// variant.Name, in the same order). From them: the houses and groups that
// may not repeat a digit (conflicts, "Fill candidates"; a jigsaw's regions
// instead of the boxes), and the rule a wrong digit breaks, for Check. The
// server's variant.Check stays the judge of a finished grid: this only
// points at what the board shows.

import { rowOf, colOf } from "./grid.js";

// The fixed extra regions' cells, as internal/variant/shapes.go's
// pictures hold them.
const SHAPES = {
  asterisk: [13, 20, 24, 37, 40, 43, 56, 60, 67],
  centredot: [10, 13, 16, 37, 40, 43, 64, 67, 70],
  girandola: [0, 8, 13, 37, 40, 43, 67, 72, 80],
};

const cellOf = (s) => (s.charCodeAt(1) - 49) * 9 + s.charCodeAt(3) - 49;
const named = (i) => `r${rowOf(i) + 1}c${colOf(i) + 1}`;
const KNIGHT = [[1, 2], [2, 1], [-1, 2], [-2, 1], [1, -2], [2, -1], [-1, -2], [-2, -1]];
const KING = [[1, 1], [1, -1], [-1, 1], [-1, -1], [0, 1], [1, 0], [0, -1], [-1, 0]];
const SIDES = [[0, 1], [1, 0], [0, -1], [-1, 0]];

function moves(i, list) {
  const out = [];
  for (const [dr, dc] of list) {
    const r = rowOf(i) + dr, c = colOf(i) + dc;
    if (r >= 0 && r < 9 && c >= 0 && c < 9) out.push(r * 9 + c);
  }
  return out;
}

// groupsOf returns the groups of cells rule r keeps from repeating a
// digit, each {name, cells}.
function groupsOf(r, name) {
  const g = (cells) => ({ name, cells });
  switch (r.type) {
    case "diagonal-": return [g([...Array(9)].map((_, k) => k * 10))];
    case "diagonal+": return [g([...Array(9)].map((_, k) => k * 9 + 8 - k))];
    case "windoku": {
      const out = [];
      for (const [r0, c0] of [[1, 1], [1, 5], [5, 1], [5, 5]]) {
        const cells = [];
        for (let k = 0; k < 9; k++) cells.push((r0 + Math.floor(k / 3)) * 9 + c0 + (k % 3));
        out.push(g(cells));
      }
      return out;
    }
    case "disjoint": {
      const out = [];
      for (let k = 0; k < 9; k++) {
        const cells = [];
        for (let b = 0; b < 9; b++) cells.push((Math.floor(b / 3) * 3 + Math.floor(k / 3)) * 9 + (b % 3) * 3 + (k % 3));
        out.push(g(cells));
      }
      return out;
    }
    case "asterisk": case "centredot": case "girandola": return [g(SHAPES[r.type])];
    case "killer": case "renban": case "extraregion": return [g(r.cells.map(cellOf))];
  }
  return [];
}

// variantOf reads the variant a play section carries; null for a classic
// puzzle (or rules that do not read).
export function variantOf(section) {
  let rules, names;
  try {
    rules = JSON.parse(section.dataset.rules || "null");
    names = JSON.parse(section.dataset.ruleNames || "[]");
  } catch {
    return null;
  }
  if (!Array.isArray(rules) || rules.length === 0) return null;
  for (const r of rules) r.at = (r.cells || []).map(cellOf);
  const jigsaw = rules.find((r) => r.type === "jigsaw");
  const region = (i) => (jigsaw ? +jigsaw.regions[i] - 1 : Math.floor(i / 27) * 3 + Math.floor((i % 9) / 3));
  const units = [];
  for (let k = 0; k < 9; k++) {
    const row = [], col = [], box = [];
    for (let j = 0; j < 9; j++) { row.push(k * 9 + j); col.push(j * 9 + k); }
    for (let i = 0; i < 81; i++) if (region(i) === k) box.push(i);
    units.push({ name: `row ${k + 1}`, cells: row }, { name: `column ${k + 1}`, cells: col }, { name: jigsaw ? `region ${k + 1}` : `box ${k + 1}`, cells: box });
  }
  rules.forEach((r, k) => units.push(...groupsOf(r, names[k] || r.type)));
  const peerSets = [...Array(81)].map(() => new Set());
  for (const u of units) for (const a of u.cells) for (const b of u.cells) if (a !== b) peerSets[a].add(b);
  const has = (t) => rules.some((r) => r.type === t);
  for (let i = 0; i < 81; i++) {
    if (has("antiknight")) moves(i, KNIGHT).forEach((j) => peerSets[i].add(j));
    if (has("antiking")) moves(i, KING).forEach((j) => peerSets[i].add(j));
  }
  const peers = peerSets.map((s) => [...s]);
  // notes[i] says which drawn rules cell i lies in, for its label: the
  // drawing is hidden from screen readers, the words say only what the
  // rules are.
  const notes = [...Array(81)].map(() => []);
  rules.forEach((r, k) => {
    if (r.type === "littlekiller") return; // Cells[0] only starts its diagonal
    for (const c of new Set(r.at)) notes[c].push(names[k] || r.type);
  });
  return { rules, names, units, peers, region, notes: notes.map((n) => n.join("; ")), broken: (values, i) => broken(rules, names, units, values, i) };
}

// broken names the first rule the digit in cell i breaks on the board as
// it stands (values, 0 for empty), or "".
function broken(rules, names, units, values, i) {
  const v = values[i];
  if (!v) return "";
  for (const u of units) {
    if (u.cells.includes(i) && u.cells.some((j) => j !== i && values[j] === v)) return u.name;
  }
  const edgeMarks = new Set();
  for (const r of rules) if (["white", "black", "x", "v"].includes(r.type)) edgeMarks.add(`${r.type}:${Math.min(...r.at)}-${Math.max(...r.at)}`);
  for (let k = 0; k < rules.length; k++) {
    const r = rules[k];
    if ((r.at.includes(i) || !r.at.length || r.type === "littlekiller" || r.type === "sandwich") && breaks(r, values, i, edgeMarks)) return names[k] || r.type;
  }
  return "";
}

const pairBreaks = {
  white: (a, b) => Math.abs(a - b) !== 1,
  black: (a, b) => a !== 2 * b && b !== 2 * a,
  x: (a, b) => a + b !== 10,
  v: (a, b) => a + b !== 5,
  whispers: (a, b) => Math.abs(a - b) < 5,
};

// breaks reports whether rule r is broken at cell i on the board.
function breaks(r, values, i, edgeMarks) {
  const v = values[i], at = r.at, vals = at.map((c) => values[c]);
  const full = vals.every((x) => x), sum = vals.reduce((s, x) => s + x, 0);
  switch (r.type) {
    case "antiknight": return moves(i, KNIGHT).some((j) => values[j] === v);
    case "antiking": return moves(i, KING).some((j) => values[j] === v);
    case "nonconsecutive": return moves(i, SIDES).some((j) => values[j] && Math.abs(values[j] - v) === 1);
    case "kropkinegative": return moves(i, SIDES).some((j) => values[j] && !edgeMarks.has(`white:${Math.min(i, j)}-${Math.max(i, j)}`) &&
      !edgeMarks.has(`black:${Math.min(i, j)}-${Math.max(i, j)}`) && (Math.abs(values[j] - v) === 1 || values[j] === 2 * v || v === 2 * values[j]));
    case "xvnegative": return moves(i, SIDES).some((j) => values[j] && !edgeMarks.has(`x:${Math.min(i, j)}-${Math.max(i, j)}`) &&
      !edgeMarks.has(`v:${Math.min(i, j)}-${Math.max(i, j)}`) && (values[j] + v === 10 || values[j] + v === 5));
    case "killer": return r.total != null && (sum > r.total || (full && sum !== r.total));
    case "littlekiller": return diagonalBreaks(r, values, i);
    case "sandwich": return sandwichBreaks(r, values, i);
    case "thermo": return at.some((a, j) => at.some((b, k) => j < k && values[a] && values[b] && values[b] - values[a] < k - j));
    case "arrow": {
      const n = r.circle || 1;
      const head = n === 2 ? vals[0] * 10 + vals[1] : vals[0];
      const line = vals.slice(n);
      return vals.slice(0, n).every((x) => x) && line.every((x) => x) && line.reduce((s, x) => s + x, 0) !== head;
    }
    case "white": case "black": case "x": case "v": return full && pairBreaks[r.type](vals[0], vals[1]);
    case "whispers": return vals.some((a, k) => k > 0 && a && vals[k - 1] && pairBreaks.whispers(a, vals[k - 1]));
    case "odd": return v % 2 === 0;
    case "even": return v % 2 === 1;
    case "renban": {
      const f = vals.filter((x) => x);
      return Math.max(...f) - Math.min(...f) > at.length - 1;
    }
    case "palindrome": return vals.some((a, k) => a && vals[at.length - 1 - k] && a !== vals[at.length - 1 - k]);
  }
  return false;
}

// diagonalBreaks: a little killer's diagonal, from its first cell along
// its step, sums past its total (or to another total once full).
function diagonalBreaks(r, values, i) {
  const step = { dr: [1, 1], dl: [1, -1], ur: [-1, 1], ul: [-1, -1] }[r.dir];
  if (!step || r.total == null) return false;
  const cells = [];
  for (let row = rowOf(r.at[0]), col = colOf(r.at[0]); row >= 0 && row < 9 && col >= 0 && col < 9; row += step[0], col += step[1]) cells.push(row * 9 + col);
  if (!cells.includes(i)) return false;
  const vals = cells.map((c) => values[c]), sum = vals.reduce((s, x) => s + x, 0);
  return sum > r.total || (vals.every((x) => x) && sum !== r.total);
}

// sandwichBreaks: once the 1 and the 9 of the line and every cell between
// them are placed, the cells between sum to the total.
function sandwichBreaks(r, values, i) {
  if (r.total == null || !r.line) return false;
  const k = +r.line[1] - 1, cells = [];
  for (let j = 0; j < 9; j++) cells.push(r.line[0] === "r" ? k * 9 + j : j * 9 + k);
  if (!cells.includes(i)) return false;
  const a = cells.findIndex((c) => values[c] === 1), b = cells.findIndex((c) => values[c] === 9);
  if (a < 0 || b < 0) return false;
  const between = cells.slice(Math.min(a, b) + 1, Math.max(a, b)).map((c) => values[c]);
  return between.every((x) => x) && between.reduce((s, x) => s + x, 0) !== r.total;
}

// brokenText is Check's sentence for a wrong cell of a variant: "r4c5
// breaks the killer cage of 17 in box 5", or its name alone when the
// board does not show yet which rule it breaks.
export function brokenText(variant, values, i) {
  const why = variant.broken(values, i);
  return why ? `${named(i)} breaks ${why}` : named(i);
}

// placeOverlays lays each board's drawing of its rules (the SVGs the page
// draws in the board's .board-wrap) exactly over its cells, from the
// first cell's top left corner to the last cell's bottom right one, as
// draw.js lays a step, and again whenever the board changes size (a
// folded board shown, a window turned).
export function placeOverlays(root = document) {
  root.querySelectorAll(".board-wrap").forEach((wrap) => {
    const svgs = wrap.querySelectorAll(":scope > svg.variant-overlay");
    const table = wrap.querySelector(":scope > table");
    if (!svgs.length || !table) return;
    const place = () => {
      const first = table.querySelector('td[data-cell="0"]'), last = table.querySelector('td[data-cell="80"]');
      if (!first || !last) return;
      const w = wrap.getBoundingClientRect(), a = first.getBoundingClientRect(), z = last.getBoundingClientRect();
      if (!z.right) return; // not shown yet
      for (const svg of svgs) {
        svg.style.left = `${a.left - w.left}px`;
        svg.style.top = `${a.top - w.top}px`;
        svg.style.width = `${z.right - a.left}px`;
        svg.style.height = `${z.bottom - a.top}px`;
      }
    };
    place();
    if (typeof ResizeObserver === "function") new ResizeObserver(place).observe(table);
  });
}

// cageCombos is the sentence a "Cage combinations" press says for the
// killer cage of cell i: the sets of different digits that make its total
// and hold the digits placed in it already ("the killer cage of 17 in box
// 1 (2 cells): 8+9."), or "" when the cell is in no cage with a total.
export function cageCombos(variant, values, i) {
  const k = variant.rules.findIndex((r) => r.type === "killer" && r.total != null && r.at.includes(i));
  if (k < 0) return "";
  const r = variant.rules[k], n = r.at.length;
  const placed = r.at.map((c) => values[c]).filter(Boolean);
  const sets = [];
  for (let m = 0; m < 512; m++) {
    const ds = [];
    for (let d = 1; d <= 9; d++) if (m & (1 << (d - 1))) ds.push(d);
    if (ds.length === n && ds.reduce((s, d) => s + d, 0) === r.total && placed.every((d) => ds.includes(d))) sets.push(ds.join("+"));
  }
  sets.sort();
  const what = `${variant.names[k] || "the cage"} (${n === 1 ? "1 cell" : `${n} cells`})`;
  if (!sets.length) return `No set of different digits fits ${what} with the digits placed in it.`;
  return `${what[0].toUpperCase()}${what.slice(1)}: ${sets.join(", ")}.`;
}
