// Sudoku geometry and the little logic the boards share: units, peers,
// candidates, conflicts, and how a cell is named and painted. Cells are
// numbered row by row from 0, as everywhere in the archive.

export const ALL = 0x3fe; // candidate bits 1-9 (bit d is digit d)

// UNITS lists the 27 units, each {name, cells}: rows, columns, boxes.
export const UNITS = [];
for (let k = 0; k < 9; k++) {
  const row = [], col = [], box = [];
  for (let j = 0; j < 9; j++) {
    row.push(k * 9 + j);
    col.push(j * 9 + k);
    box.push((Math.floor(k / 3) * 3 + Math.floor(j / 3)) * 9 + (k % 3) * 3 + (j % 3));
  }
  UNITS.push({ name: `Row ${k + 1}`, cells: row });
  UNITS.push({ name: `Column ${k + 1}`, cells: col });
  UNITS.push({ name: `Box ${k + 1}`, cells: box });
}

export const rowOf = (i) => Math.floor(i / 9);
export const colOf = (i) => i % 9;
export const boxOf = (i) => Math.floor(i / 27) * 3 + Math.floor((i % 9) / 3);

// PEERS[i] lists the 20 cells that share a row, column or box with cell i.
export const PEERS = [];
for (let i = 0; i < 81; i++) {
  const set = new Set();
  for (const u of [UNITS[rowOf(i) * 3], UNITS[colOf(i) * 3 + 1], UNITS[boxOf(i) * 3 + 2]]) {
    for (const j of u.cells) if (j !== i) set.add(j);
  }
  PEERS.push([...set]);
}

// cellName is how a cell is announced: "row 3, column 7".
export const cellName = (i) => `row ${rowOf(i) + 1}, column ${colOf(i) + 1}`;

// digitsOf lists the digits of a candidate mask: 0b1010 → [1, 3].
export function digitsOf(mask) {
  const ds = [];
  for (let d = 1; d <= 9; d++) if (mask & (1 << d)) ds.push(d);
  return ds;
}

// candidatesOf returns, for each empty cell of values, the digits no peer
// holds (0 for filled cells). A variant's board passes its own peers
// (variant.js).
export function candidatesOf(values, peers = PEERS) {
  const cands = new Uint16Array(81);
  for (let i = 0; i < 81; i++) {
    if (values[i]) continue;
    let m = ALL;
    for (const p of peers[i]) if (values[p]) m &= ~(1 << values[p]);
    cands[i] = m;
  }
  return cands;
}

// conflictsOf marks every filled cell whose digit a peer also holds. A
// variant's board passes its own units (variant.js).
export function conflictsOf(values, units = UNITS) {
  const bad = new Uint8Array(81);
  for (const u of units) {
    const seen = new Array(10).fill(-1);
    for (const i of u.cells) {
      const v = values[i];
      if (!v) continue;
      if (seen[v] >= 0) bad[i] = bad[seen[v]] = 1;
      else seen[v] = i;
    }
  }
  return bad;
}

// prepareCell gives a board cell the two parts a playing or explaining board
// paints: the digit (.v) and the nine pencil marks (.marks), one span a
// digit. paintMarks says which show.
export function prepareCell(td) {
  const v = document.createElement("span");
  v.className = "v";
  v.textContent = td.textContent.trim();
  const marks = document.createElement("span");
  marks.className = "marks";
  marks.setAttribute("aria-hidden", "true");
  for (let d = 1; d <= 9; d++) {
    const m = document.createElement("span");
    m.textContent = String(d);
    marks.append(m);
  }
  td.replaceChildren(v, marks);
  return { v, marks };
}

// maskAttr writes a candidate mask as the marks attributes want it.
export const maskAttr = (mask) => digitsOf(mask).join(" ");

// paintMarks shows a cell's pencil marks (candidate masks): each digit's
// span gets data-mark "good" (a step places it), "struck" (a step removes
// it) or "on" (pencilled in), or none (hidden), which the CSS reads. The
// .marks element keeps the three sets as data-marks, data-struck and
// data-good ("1 4 7") for whoever reads the board.
export function paintMarks(el, marks, struck, good) {
  el.dataset.marks = maskAttr(marks);
  el.dataset.struck = maskAttr(struck);
  el.dataset.good = maskAttr(good);
  for (let d = 1; d <= 9; d++) {
    const bit = 1 << d, span = el.children[d - 1];
    const state = good & bit ? "good" : struck & bit ? "struck" : marks & bit ? "on" : "";
    if ((span.dataset.mark || "") === state) continue;
    if (state) span.dataset.mark = state;
    else delete span.dataset.mark;
  }
}

// formatTime writes milliseconds as m:ss, or h:mm:ss past an hour.
export function formatTime(ms) {
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}
