// Sudoku Archive: the solving board of the puzzle page and of a shared
// puzzle (templates/play.templ). The page renders the givens; this module
// makes the board playable as SudokuPad's solvers know it: four modes
// (normal digits, corner marks, centre marks, nine cell colours; keys
// z/x/c/v, Space cycles, Shift held for corner and Ctrl held for centre),
// many cells selected at once (drag, Ctrl/Shift-click, Shift+arrows) and a
// digit or mark entered into all of them, undo and redo, conflicts and
// highlights, Check, Hint, a timer that pauses while the tab is hidden,
// and the player's progress (digits, both kinds of marks, colours, the
// undo history) kept in localStorage per puzzle.
//
// Every keystroke changes a model (values, corner, centre, colours) and
// then paints only the cells whose look changed, from per-cell caches, so a
// keystroke costs well under a frame.
import { PEERS, cellName, candidatesOf, conflictsOf, digitsOf, formatTime, maskAttr, paintMarks, prepareCell, rowOf, colOf, boxOf } from "./grid.js";
import { format } from "./puzzletext.js";
import { recorder } from "./attempt.js";
import { goNext } from "./next.js";
import { overlayOf, drawStep } from "./draw.js";
import { variantOf, brokenText, placeOverlays, cageCombos } from "./variant.js";

const HINT_URL = "/api/hint";
// MODES are the four kinds of entry, in the order Space cycles them.
const MODES = ["normal", "corner", "centre", "colour"];
const MODE_NAMES = { normal: "Normal: digits fill cells", corner: "Corner marks", centre: "Centre marks", colour: "Colour: digits 1 to 9 colour cells" };
const MODE_KEYS = { z: "normal", x: "corner", c: "centre", v: "colour" };
const LONG_PRESS_MS = 450;
const KEPT_ACTIONS = 200; // the undo history kept across a reload

function init(section) {
  const table = section.querySelector("[data-play-board]");
  const givensText = section.dataset.givens || "";
  const solutionText = section.dataset.solution || "";
  const tds = [];
  table.querySelectorAll("td[data-cell]").forEach((td) => { tds[+td.dataset.cell] = td; });
  if (givensText.length !== 81 || tds.length !== 81) return;

  const digitsFrom = (s) => Uint8Array.from(s, (ch) => (ch >= "1" && ch <= "9" ? ch.charCodeAt(0) - 48 : 0));
  const givens = digitsFrom(givensText);
  const solution = solutionText.length === 81 ? digitsFrom(solutionText) : null;
  // A variant's rules (variant.js) bring their own houses and peers, and a
  // full grid without a clash is solved only when it is the solution.
  const variant = variantOf(section);
  const peersOf = variant ? variant.peers : PEERS;
  const conflictsHere = (vals) => (variant ? conflictsOf(vals, variant.units) : conflictsOf(vals));
  const solvedNow = () => values.every(Boolean) && !conflictsHere(values).some(Boolean) &&
    (!variant || !solution || values.every((v, i) => v === solution[i]));
  const ctl = {};
  section.querySelectorAll("[data-play]").forEach((el) => { ctl[el.dataset.play] = el; });
  const modeButtons = section.querySelectorAll("[data-mode]");
  const storeKey = `sudoku:play:${givensText}`;
  const puzzleId = +section.dataset.puzzleId || 0;
  // practice is the technique practised (the page's ?practice=, shown in
  // its banner): hints go to its next step, and the attempt is marked.
  const banner = document.querySelector("[data-practice]");
  const practice = banner ? banner.dataset.practice : "";
  let rec = recorder(puzzleId, null, practice); // the attempt (attempt.js); restore brings back its counts

  // The model: a cell's digit, its corner marks and centre marks (masks,
  // bit d for digit d) and its colour (0 none, 1-9).
  const values = Uint8Array.from(givens);
  const marks = new Uint16Array(81); // corner marks: the pencil marks hints read first
  const centre = new Uint16Array(81);
  const colours = new Uint8Array(81);
  const wrong = new Uint8Array(81); // marked by Check or a refused hint, until the cell changes
  let undoStack = [], redoStack = [];
  // sel is the cursor (the focused cell); chosen the cells selected, which
  // a digit or mark goes into. The cursor is always chosen.
  let sel = givens.indexOf(0) >= 0 ? givens.indexOf(0) : 0;
  let chosen = new Set([sel]);
  let mode = "normal";
  let hint = null; // the step a hint shows: {cells: Set, good: Map, struck: Map, step}
  let drawn = null; // the hint drawn over the board (drawHint)
  let elapsed = 0, runningSince = null, done = false, tick = 0;

  // What each cell shows, as last painted.
  const parts = tds.map((td) => {
    const p = prepareCell(td);
    p.centre = document.createElement("span");
    p.centre.className = "cm";
    p.centre.setAttribute("aria-hidden", "true");
    td.append(p.centre);
    return p;
  });
  const painted = tds.map(() => ({ text: null, cls: null, marks: null, struck: null, good: null, label: null, centre: null, colour: null }));
  tds.forEach((td, i) => {
    td.setAttribute("role", "gridcell");
    td.tabIndex = i === sel ? 0 : -1;
  });
  table.setAttribute("role", "grid");
  table.setAttribute("aria-multiselectable", "true");
  section.classList.add("play-ready");

  function say(msg) {
    if (ctl.status) ctl.status.textContent = msg;
  }

  // cellClass is the class list a cell shows.
  function cellClass(i, conflicts) {
    const v = values[i], sv = values[sel];
    let cls = givens[i] ? "given" : v ? "entered" : "empty";
    if (chosen.has(i)) cls += " selected";
    if (i === sel) cls += " cursor";
    else if (chosen.size === 1 && (rowOf(i) === rowOf(sel) || colOf(i) === colOf(sel) || (variant ? variant.region(i) === variant.region(sel) : boxOf(i) === boxOf(sel)))) cls += " peer";
    if (sv && v === sv) cls += " same-digit";
    if (conflicts[i] && !givens[i]) cls += " conflict";
    else if (conflicts[i]) cls += " conflict-given";
    if (wrong[i]) cls += " wrong";
    if (hint && hint.cells.has(i)) cls += " hint-cell";
    if (!v && centre[i]) cls += " has-centre";
    return cls;
  }

  function cellLabel(i, conflicts) {
    const v = values[i];
    let label = `${cellName(i)}, `;
    if (givens[i]) label += `given ${v}`;
    else if (v) label += String(v);
    else {
      label += "empty";
      if (marks[i]) label += `, corner marks ${maskAttr(marks[i])}`;
      if (centre[i]) label += `, centre marks ${maskAttr(centre[i])}`;
    }
    if (variant && variant.notes[i]) label += `, part of ${variant.notes[i]}`;
    if (colours[i]) label += `, colour ${colours[i]}`;
    if (conflicts[i]) label += ", clashes with another cell";
    if (wrong[i]) label += ", wrong";
    return label;
  }

  // paint brings every cell's look in line with the model, writing only what
  // changed.
  function paint() {
    const conflicts = conflictsHere(values);
    for (let i = 0; i < 81; i++) {
      const v = values[i], p = painted[i], part = parts[i], td = tds[i];
      const cls = cellClass(i, conflicts);
      if (p.cls !== cls) { td.className = cls; p.cls = cls; }
      const text = v ? String(v) : "";
      if (p.text !== text) { part.v.textContent = text; p.text = text; }
      const mm = v ? 0 : marks[i];
      const struck = hint && hint.struck.has(i) ? hint.struck.get(i) : 0;
      const good = hint && hint.good.has(i) ? hint.good.get(i) : 0;
      if (p.marks !== mm || p.struck !== struck || p.good !== good) {
        paintMarks(part.marks, mm, struck, good);
        p.marks = mm; p.struck = struck; p.good = good;
      }
      const cm = v ? "" : digitsOf(centre[i]).join("");
      if (p.centre !== cm) { part.centre.textContent = cm; p.centre = cm; }
      if (p.colour !== colours[i]) {
        if (colours[i]) td.dataset.colour = String(colours[i]);
        else delete td.dataset.colour;
        p.colour = colours[i];
      }
      const label = cellLabel(i, conflicts);
      if (p.label !== label) { td.setAttribute("aria-label", label); p.label = label; }
      const on = chosen.has(i) ? "true" : null;
      if (td.getAttribute("aria-selected") !== on) {
        if (on) td.setAttribute("aria-selected", on);
        else td.removeAttribute("aria-selected");
      }
    }
    if (drawn !== hint) { drawn = hint; drawHint(); }
  }

  // select moves the cursor to cell i; extend adds it to the selection,
  // else it becomes the selection alone.
  function select(i, focus, extend) {
    if (i < 0 || i > 80) return;
    tds[sel].tabIndex = -1;
    sel = i;
    if (!extend) chosen = new Set();
    chosen.add(i);
    tds[i].tabIndex = 0;
    if (focus) tds[i].focus();
    paint();
  }

  // toggleChosen adds cell i to the selection, or takes it out (Ctrl-click).
  function toggleChosen(i) {
    if (chosen.has(i) && chosen.size > 1) {
      chosen.delete(i);
      if (sel === i) {
        tds[sel].tabIndex = -1;
        sel = chosen.values().next().value;
        tds[sel].tabIndex = 0;
      }
      paint();
    } else select(i, true, true);
  }

  const stateOf = (i) => [values[i], marks[i], centre[i], colours[i]];

  // change applies edits, each [cell, value, corner, centre, colour], as
  // one undoable action. A given keeps its digit and takes no marks; only
  // its colour changes.
  function change(edits, message) {
    if (done) return;
    const action = [];
    for (const [i, v, m, c, k] of edits) {
      const before = stateOf(i);
      const after = givens[i] ? [before[0], before[1], before[2], k] : [v, m, c, k];
      if (after.every((x, j) => x === before[j])) continue;
      action.push([i, ...before, ...after]);
    }
    if (!action.length) return;
    startClock(); // the first move opens the attempt, and starts the clock
    undoStack.push(action);
    if (undoStack.length > KEPT_ACTIONS * 2) undoStack = undoStack.slice(-KEPT_ACTIONS);
    redoStack = [];
    applyAction(action, true);
    after(message);
  }

  function applyAction(action, forward) {
    for (const a of action) {
      const i = a[0], o = forward ? 5 : 1;
      values[i] = a[o]; marks[i] = a[o + 1]; centre[i] = a[o + 2]; colours[i] = a[o + 3];
      wrong[i] = 0;
    }
  }

  function after(message) {
    hint = null;
    if (ctl.hint) ctl.hint.hidden = true;
    updateButtons();
    const finished = solvedNow();
    if (finished) finish();
    paint();
    save();
    if (message && !finished) say(message);
  }

  function updateButtons() {
    if (ctl.undo) ctl.undo.disabled = !undoStack.length || done;
    if (ctl.redo) ctl.redo.disabled = !redoStack.length || done;
  }

  function undo() {
    const action = undoStack.pop();
    if (!action || done) return;
    redoStack.push(action);
    applyAction(action, false);
    after(`Undone: ${describe(action)}.`);
  }

  function redo() {
    const action = redoStack.pop();
    if (!action || done) return;
    undoStack.push(action);
    applyAction(action, true);
    after(`Redone: ${describe(action)}.`);
  }

  function describe(action) {
    if (action.length > 3) return `${action.length} cells`;
    return action.map((a) => cellName(a[0])).join("; ");
  }

  // targets are the selected cells in board order.
  const targets = () => [...chosen].sort((a, b) => a - b);
  const where = (cells) => (cells.length === 1 ? cellName(cells[0]) : `${cells.length} cells`);

  // placeAll puts digit d into every selected cell that is not a given, or
  // clears them (d = 0). A digit placed also leaves the marks of its peers.
  function placeAll(cells, d) {
    const open = cells.filter((i) => !givens[i]);
    if (!open.length) {
      say(`${where(cells)}: ${cells.length === 1 ? "a given" : "givens"}.`);
      return;
    }
    if (!d) {
      change(open.map((i) => [i, 0, values[i] ? marks[i] : 0, values[i] ? centre[i] : 0, colours[i]]), `${where(open)} cleared.`);
      return;
    }
    if (solution && open.some((i) => solution[i] !== d)) rec.mistake();
    const bit = 1 << d, edits = new Map();
    for (const i of open) edits.set(i, [i, d, 0, 0, colours[i]]);
    for (const i of open) {
      for (const p of peersOf[i]) {
        if (edits.has(p) || values[p] || !((marks[p] | centre[p]) & bit)) continue;
        edits.set(p, [p, 0, marks[p] & ~bit, centre[p] & ~bit, colours[p]]);
      }
    }
    change([...edits.values()], `${where(open)}: ${d}.`);
  }

  // place is placeAll for one cell (the hint without the server).
  const place = (i, d) => placeAll([i], d);

  // markAll toggles the corner or centre mark d in every selected empty
  // cell: added to all unless all have it already, then taken from all.
  function markAll(cells, d, kind) {
    const open = cells.filter((i) => !values[i]);
    const layer = kind === "centre" ? centre : marks;
    if (!open.length) {
      say(`${where(cells)} ${cells.length === 1 ? "holds a digit" : "hold digits"}: clear to mark.`);
      return;
    }
    const bit = 1 << d;
    const remove = open.every((i) => layer[i] & bit);
    const edits = open.map((i) => {
      const m = remove ? layer[i] & ~bit : layer[i] | bit;
      return kind === "centre" ? [i, 0, marks[i], m, colours[i]] : [i, 0, m, centre[i], colours[i]];
    });
    const name = kind === "centre" ? "centre mark" : "corner mark";
    change(edits, `${where(open)}: ${name} ${d} ${remove ? "removed" : "added"}.`);
  }

  // colourAll colours every selected cell with colour k, or clears it
  // when all have it already (or k is 0).
  function colourAll(cells, k) {
    const off = !k || cells.every((i) => colours[i] === k);
    change(cells.map((i) => [i, values[i], marks[i], centre[i], off ? 0 : k]), `${where(cells)}: ${off ? "colour cleared" : `colour ${k}`}.`);
  }

  // clearAll is Delete: the selected cells' digits, else their marks, else
  // their colours (in colour mode their colours first).
  function clearAll(kind) {
    const cells = targets();
    if (kind === "colour" || !cells.some((i) => (!givens[i] && values[i]) || marks[i] || centre[i])) {
      colourAll(cells, 0);
      return;
    }
    if (cells.some((i) => !givens[i] && values[i])) placeAll(cells, 0);
    else change(cells.map((i) => [i, values[i], 0, 0, colours[i]]), `${where(cells)}: marks cleared.`);
  }

  // input enters d in the selected cells as the mode (or the held
  // modifier) says.
  function input(d, kind = mode) {
    if (!d) return clearAll(kind);
    const cells = targets();
    if (kind === "corner" || kind === "centre") markAll(cells, d, kind);
    else if (kind === "colour") colourAll(cells, d);
    else placeAll(cells, d);
  }

  function setMode(m) {
    mode = m;
    modeButtons.forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.mode === m)));
    MODES.forEach((x) => section.classList.toggle(`mode-${x}`, x === m));
    section.classList.toggle("pencil-on", m === "corner" || m === "centre");
    say(`${MODE_NAMES[m]}.`);
  }

  function autoCandidates() {
    const cands = candidatesOf(values, peersOf);
    const edits = [];
    for (let i = 0; i < 81; i++) if (!values[i]) edits.push([i, 0, cands[i], centre[i], colours[i]]);
    change(edits, "Every empty cell now shows its candidates.");
  }

  function restart() {
    const edits = [];
    for (let i = 0; i < 81; i++) edits.push([i, 0, 0, 0, 0]);
    change(edits, "Back to the givens. Undo brings your progress back.");
  }

  function wrongCells() {
    const bad = [];
    if (!solution) return bad;
    for (let i = 0; i < 81; i++) if (values[i] && !givens[i] && values[i] !== solution[i]) bad.push(i);
    return bad;
  }

  function check() {
    if (!solution || done) return;
    rec.check();
    const bad = wrongCells();
    bad.forEach((i) => { wrong[i] = 1; });
    paint();
    const left = values.filter((v) => !v).length;
    const named = variant ? (i) => brokenText(variant, values, i) : cellName;
    if (bad.length) say(`${bad.length === 1 ? "1 cell is" : `${bad.length} cells are`} wrong, marked on the board: ${bad.map(named).join("; ")}.`);
    else say(`No mistakes so far. ${left === 1 ? "1 cell" : `${left} cells`} to go.`);
  }

  // askHint asks the server for the next logical step from the player's
  // progress. Until the server offers hints (404 or 405), a hint reveals one
  // correct cell.
  async function askHint() {
    if (done) return;
    say("Looking for the next step…");
    let res = null;
    try {
      res = await fetch(HINT_URL, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify(hintBody()),
      });
    } catch {
      res = null;
    }
    if (res && res.ok) {
      try {
        const body = await res.json();
        if (body && body.step) {
          rec.hint(body.step.technique);
          showStep(body.step, body.practice, body.note);
          return;
        }
      } catch { /* fall back below */ }
    } else if (res && res.status === 422) {
      let body = {};
      try { body = await res.json(); } catch { /* keep the default message */ }
      const cells = Array.isArray(body.cells) ? body.cells : wrongCells();
      cells.forEach((i) => { if (i >= 0 && i < 81) wrong[i] = 1; });
      paint();
      say(`${body.error || "Some digits contradict the solution"}: the wrong cells are marked. Fix them, then ask again.`);
      return;
    }
    revealOne();
  }

  // hintBody asks for the next step from the board as the player sees it:
  // the digits and the pencil marks ("" where a cell shows none): a cell's
  // corner marks, else its centre marks (solvers write candidates in
  // either).
  function hintBody() {
    const candidates = Array.from(marks, (m, i) => (values[i] ? "" : digitsOf(m || centre[i]).join("")));
    const body = { puzzle: givensText, progress: format(values), candidates };
    if (practice) body.practice = practice;
    return body;
  }

  // showStep shows a hint's step, drawn on the board; in practice mode p
  // says whether it is the technique practised (p.found); note says which
  // cells it strikes candidates from that show no pencil marks.
  function showStep(step, p, note) {
    const good = new Map(), struck = new Map();
    for (const { cell, digit } of step.placements || []) good.set(cell, (good.get(cell) || 0) | (1 << digit));
    for (const { cell, digit } of step.eliminations || []) struck.set(cell, (struck.get(cell) || 0) | (1 << digit));
    const cells = new Set([...(step.cells || []), ...good.keys(), ...struck.keys()]);
    hint = { cells, good, struck, step };
    if (ctl.hint) {
      let title = step.technique + (step.grade ? ` (${step.grade})` : "");
      let text = step.text || "";
      if (p && p.found) {
        title = `Practice: ${title}`;
      } else if (p) {
        text = `${p.technique} is not the next step on your board. The next step: ${text}`;
      }
      if (note) text += ` ${note}`;
      ctl["hint-title"].textContent = title;
      ctl["hint-text"].textContent = text;
      ctl["hint-apply"].hidden = !good.size && !struck.size;
      ctl.hint.hidden = false;
    }
    paint();
    say(`Hint: ${p && p.found ? "practice, " : ""}${step.technique}. ${step.text || ""}${note ? ` ${note}` : ""}`);
  }

  // drawHint draws the hint's pattern over the board (draw.js), or clears it.
  function drawHint() {
    const shown = Uint16Array.from(marks, (m, i) => (values[i] ? 0 : m || centre[i]));
    const computed = candidatesOf(values, peersOf);
    for (let i = 0; i < 81; i++) if (!shown[i]) shown[i] = computed[i];
    drawStep(overlayOf(table), hint ? hint.step : null, shown);
  }

  function applyHint() {
    if (!hint) return;
    const edits = new Map();
    const v = Uint8Array.from(values), m = Uint16Array.from(marks), c = Uint16Array.from(centre);
    for (const [i, mask] of hint.good) {
      const d = digitsOf(mask)[0];
      v[i] = d;
      m[i] = 0;
      c[i] = 0;
      edits.set(i, true);
      for (const p of peersOf[i]) if (!v[p] && (m[p] | c[p]) & (1 << d)) { m[p] &= ~(1 << d); c[p] &= ~(1 << d); edits.set(p, true); }
    }
    for (const [i, mask] of hint.struck) if (!v[i]) { m[i] &= ~mask; c[i] &= ~mask; edits.set(i, true); }
    change([...edits.keys()].map((i) => [i, v[i], m[i], c[i], colours[i]]), "Hint applied.");
  }

  // revealOne is the hint without the server: wrong digits first, else the
  // selected cell if it is empty, else the empty cell with the fewest
  // candidates.
  function revealOne() {
    if (!solution) {
      say("No hint is available for this puzzle.");
      return;
    }
    const bad = wrongCells();
    if (bad.length) {
      bad.forEach((i) => { wrong[i] = 1; });
      paint();
      say(`${bad.length === 1 ? "1 cell is" : `${bad.length} cells are`} wrong, marked on the board. Fix ${bad.length === 1 ? "it" : "them"} first.`);
      return;
    }
    let best = -1;
    if (!values[sel]) best = sel;
    else {
      const cands = candidatesOf(values, peersOf);
      let fewest = 10;
      for (let i = 0; i < 81; i++) {
        if (values[i]) continue;
        const n = digitsOf(cands[i]).length;
        if (n < fewest) { fewest = n; best = i; }
      }
    }
    if (best < 0) return;
    rec.hint("");
    select(best, table.contains(document.activeElement), false);
    place(best, solution[best]);
    if (!done) say(`Hint: ${cellName(best)} is ${solution[best]}.`);
  }

  // The timer runs while the page is visible and the puzzle unfinished,
  // from the moment the server has opened the attempt (its answer to the
  // first move): one clock, so the time the board shows at the finish is
  // the time recorded, never more than the server's clock since its start.
  const timeNow = () => elapsed + (runningSince === null ? 0 : performance.now() - runningSince);
  let clockOn = false;

  function startClock() {
    if (clockOn) return;
    clockOn = true;
    rec.start().finally(() => startTimer()); // offline too, the board keeps time
  }

  function showTime() {
    if (ctl.timer) ctl.timer.textContent = formatTime(timeNow());
  }

  function startTimer() {
    if (!clockOn || done || runningSince !== null || document.hidden) return;
    runningSince = performance.now();
    tick = setInterval(showTime, 1000);
    section.classList.remove("paused");
  }

  function pauseTimer() {
    if (runningSince === null) return;
    elapsed = timeNow();
    runningSince = null;
    clearInterval(tick);
    showTime();
    section.classList.add("paused");
  }

  // finish ends the solve; live (not a finished board reloaded), it brings
  // the end of the solve (Next, Easier, Harder) into view.
  function finish(live = true) {
    pauseTimer();
    section.classList.remove("paused");
    done = true;
    section.classList.add("finished");
    updateButtons();
    const t = formatTime(elapsed);
    if (ctl.done) {
      ctl["done-time"].textContent = t;
      ctl.done.hidden = false;
      if (live && ctl.done.scrollIntoView) ctl.done.scrollIntoView({ block: "nearest" });
    }
    say(`Solved in ${t}. Well done!`);
    record("solved");
  }

  // record sends the attempt's outcome, unless it was sent before;
  // recording is the last send, which the Next puzzle buttons wait for.
  let recording = Promise.resolve();
  function record(outcome) {
    if (rec.state.recorded) {
      if (ctl.recorded) ctl.recorded.hidden = false;
      return;
    }
    recording = rec.finish(outcome, format(values), elapsed / 1000).then((ok) => {
      save();
      if (ok && ctl.rating && rec.state.rating) {
        const [before, after] = rec.state.rating.map((n) => n.toLocaleString("en"));
        ctl.rating.textContent = `Your rating: ${before} → ${after}.`;
        ctl.rating.hidden = false;
      }
      if (ok && ctl.recorded) {
        ctl.recorded.hidden = false;
        if (ctl.done && !ctl.done.hidden && ctl.done.scrollIntoView) ctl.done.scrollIntoView({ block: "nearest" });
      }
    });
  }

  // giveUp ends the attempt as given up; the board stays as it is, and the
  // next move begins a new attempt.
  // giveUp asks once (a give-up is recorded for good), then ends the
  // attempt; the next move begins a new one, and its clock.
  function giveUp() {
    if (done) return;
    if (!window.confirm("Give up this puzzle? The attempt is recorded as given up; your next move starts a new one.")) return;
    pauseTimer();
    section.classList.remove("paused");
    record("gave_up");
    say("Given up: this attempt is recorded as such. Show the solution below, or keep playing for a new attempt.");
    rec = recorder(puzzleId, null, practice);
    elapsed = 0;
    clockOn = false;
    showTime();
  }

  // save keeps the board: digits, corner and centre marks, colours, the
  // clock, the attempt and the undo history (its last KEPT_ACTIONS).
  function save() {
    try {
      localStorage.setItem(storeKey, JSON.stringify({
        v: format(values), m: Array.from(marks), c: Array.from(centre), k: Array.from(colours).join(""),
        u: undoStack.slice(-KEPT_ACTIONS), y: redoStack.slice(-KEPT_ACTIONS), mode,
        t: Math.round(timeNow()), done, r: rec.state,
      }));
    } catch { /* storage full or disabled: progress is not kept */ }
  }

  // actionsFrom reads a saved undo history, dropping it whole if any entry
  // is not an action of this board.
  function actionsFrom(list) {
    if (!Array.isArray(list)) return [];
    const entryOk = (e) => Array.isArray(e) && e.length === 9 && e.every((x) => Number.isInteger(x) && x >= 0 && x <= 0x3fe) &&
      e[0] <= 80 && e[1] <= 9 && e[4] <= 9 && e[5] <= 9 && e[8] <= 9 && (!givens[e[0]] || (e[1] === givens[e[0]] && e[5] === givens[e[0]]));
    const ok = list.every((a) => Array.isArray(a) && a.every(entryOk));
    return ok ? list : [];
  }

  function restore() {
    let saved = null;
    try { saved = JSON.parse(localStorage.getItem(storeKey) || "null"); } catch { saved = null; }
    if (!saved || typeof saved.v !== "string" || saved.v.length !== 81) return false;
    const v = digitsFrom(saved.v);
    for (let i = 0; i < 81; i++) if (givens[i] && v[i] !== givens[i]) return false;
    values.set(v);
    if (Array.isArray(saved.m) && saved.m.length === 81) marks.set(saved.m.map((x) => x & 0x3fe));
    if (Array.isArray(saved.c) && saved.c.length === 81) centre.set(saved.c.map((x) => x & 0x3fe));
    if (typeof saved.k === "string" && saved.k.length === 81) colours.set(digitsFrom(saved.k));
    undoStack = actionsFrom(saved.u);
    redoStack = actionsFrom(saved.y);
    if (MODES.includes(saved.mode)) mode = saved.mode;
    elapsed = Math.max(0, +saved.t || 0);
    rec = recorder(puzzleId, saved.r, practice);
    return true;
  }

  // move is an arrow key: the cursor moves, wrapping at the edges; with
  // Shift (or Ctrl) the cells it passes join the selection.
  function move(k, extend) {
    const r = rowOf(sel), c = colOf(sel);
    const to = { ArrowRight: c < 8 ? sel + 1 : r * 9, ArrowLeft: c > 0 ? sel - 1 : r * 9 + 8, ArrowDown: r < 8 ? sel + 9 : c, ArrowUp: r > 0 ? sel - 9 : 72 + c, Home: r * 9, End: r * 9 + 8 }[k];
    if (to === undefined) return false;
    select(to, true, extend);
    return true;
  }

  // modeKey is a key that changes the mode: z/x/c/v, Space cycles, P (the
  // board's older key) toggles corner marks.
  function modeKey(k) {
    const key = k.toLowerCase();
    if (MODE_KEYS[key]) setMode(MODE_KEYS[key]);
    else if (k === " ") setMode(MODES[(MODES.indexOf(mode) + 1) % MODES.length]);
    else if (key === "p") setMode(mode === "corner" ? "normal" : "corner");
    else return false;
    return true;
  }

  // Keyboard: the board is one tab stop; arrows move (Shift+arrows
  // extend the selection); digits enter as the mode says, as corner marks
  // while Shift is held and as centre marks while Ctrl is; Backspace,
  // Delete, 0 or . clear; Escape keeps only the cursor selected; Ctrl+A
  // selects every cell; Ctrl+Z and Ctrl+Y (or Ctrl+Shift+Z) undo and redo
  // anywhere.
  table.addEventListener("keydown", (e) => {
    if (e.altKey) return;
    const ctrl = e.ctrlKey || e.metaKey, k = e.key;
    const m = /^(?:Digit|Numpad)([0-9])$/.exec(e.code);
    const held = ctrl ? "centre" : e.shiftKey ? "corner" : mode;
    if (m && m[1] !== "0") input(+m[1], held);
    else if (!ctrl && (m || k === "Backspace" || k === "Delete" || k === ".")) input(0, mode);
    else if (move(k, e.shiftKey || ctrl)) { /* moved */ }
    else if (k === "Escape") select(sel, true, false);
    else if (ctrl && k.toLowerCase() === "a") { chosen = new Set(tds.keys()); paint(); say("Every cell selected."); }
    else if (ctrl || !modeKey(k)) return;
    e.preventDefault();
  });

  document.addEventListener("keydown", (e) => {
    if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
    if (e.target.closest && e.target.closest("input, textarea, select, [contenteditable]")) return;
    const k = e.key.toLowerCase();
    if (k === "z" && !e.shiftKey) undo();
    else if (k === "y" || (k === "z" && e.shiftKey)) redo();
    else return;
    e.preventDefault();
  });

  // Pointer (mouse, pen, touch): a press selects the cell (Ctrl adds or
  // takes it out, Shift adds it); dragging adds every cell passed over.
  // The board takes no touch gestures (touch-action: none), so a finger
  // drags a selection instead of scrolling or zooming.
  let dragging = false;
  const cellAt = (x, y) => {
    const el = document.elementFromPoint(x, y);
    const td = el && el.closest ? el.closest("td[data-cell]") : null;
    return td && table.contains(td) ? +td.dataset.cell : -1;
  };
  table.addEventListener("pointerdown", (e) => {
    const td = e.target.closest("td[data-cell]");
    if (!td || e.button > 0) return;
    if (td.hasPointerCapture && td.hasPointerCapture(e.pointerId)) td.releasePointerCapture(e.pointerId);
    dragging = true;
    const i = +td.dataset.cell;
    if (e.ctrlKey || e.metaKey) toggleChosen(i);
    else select(i, true, e.shiftKey);
  });
  table.addEventListener("pointermove", (e) => {
    if (!dragging) return;
    const i = cellAt(e.clientX, e.clientY);
    if (i >= 0 && !chosen.has(i)) { chosen.add(i); paint(); }
  });
  const stopDrag = () => {
    if (dragging && chosen.size > 1) say(`${chosen.size} cells selected.`);
    dragging = false;
  };
  document.addEventListener("pointerup", stopDrag);
  document.addEventListener("pointercancel", stopDrag);

  table.addEventListener("focusin", (e) => {
    const td = e.target.closest("td[data-cell]");
    if (td && !dragging && !chosen.has(+td.dataset.cell)) select(+td.dataset.cell, false, false);
  });

  // A touch on the pad or the mode switch acts when the finger lifts, not
  // on the click the browser may synthesize after it (a quick second tap
  // can lose it); the click that follows is then ignored. A long press on
  // a digit enters it as a corner mark (in a marking mode, as a digit): the
  // touch player's Shift.
  let pressTimer = 0, pressed = null, longPressed = false, touched = null, touchedAt = 0;
  const controls = section.querySelector(".play-side");
  if (controls) {
    controls.addEventListener("pointerdown", (e) => {
      clearTimeout(pressTimer);
      pressed = e.target.closest("button[data-digit], button[data-mode]");
      longPressed = false;
      if (!pressed || pressed.dataset.digit === undefined || pressed.dataset.digit === "0") return;
      const b = pressed;
      pressTimer = setTimeout(() => {
        longPressed = true;
        input(+b.dataset.digit, mode === "normal" ? "corner" : "normal");
      }, LONG_PRESS_MS);
    });
    controls.addEventListener("pointerup", (e) => {
      clearTimeout(pressTimer);
      const b = e.target.closest("button[data-digit], button[data-mode]");
      if (e.pointerType === "mouse" || !b || b !== pressed) return;
      touched = b;
      touchedAt = performance.now();
      if (!longPressed) press(b);
    });
    // No click after a touch that acted: the last digit of a solve hides
    // the pad, and the click would land on what takes its place (Next).
    controls.addEventListener("touchend", (e) => {
      if (e.cancelable && e.target.closest("button[data-digit], button[data-mode]")) e.preventDefault();
    });
    for (const ev of ["pointercancel", "pointerleave"]) controls.addEventListener(ev, () => clearTimeout(pressTimer));
    controls.addEventListener("contextmenu", (e) => e.preventDefault());
  }

  // press is a pad key's or a mode button's action.
  function press(b) {
    if (b.dataset.digit !== undefined) input(+b.dataset.digit);
    else setMode(b.dataset.mode === mode && mode !== "normal" ? "normal" : b.dataset.mode);
  }

  section.addEventListener("click", (e) => {
    const b = e.target.closest("button[data-digit], button[data-act], button[data-mode]");
    if (!b || !section.contains(b)) return;
    if (b.dataset.digit !== undefined || b.dataset.mode) {
      if (b === touched && performance.now() - touchedAt < 1000) return; // the touch acted already
      return press(b);
    }
    const combos = () => say(cageCombos(variant, values, sel) || "Select a cell of a cage with a total to see its combinations.");
    const acts = { undo, redo, auto: autoCandidates, check, hint: askHint, restart, giveup: giveUp, combos, "hint-apply": applyHint, "hint-close": () => { hint = null; ctl.hint.hidden = true; paint(); },
      next: () => goNext("", puzzleId, recording, say), "next-easier": () => goNext("easier", puzzleId, recording, say), "next-harder": () => goNext("harder", puzzleId, recording, say) };
    const f = acts[b.dataset.act];
    if (f) f();
  });

  document.addEventListener("visibilitychange", () => {
    if (document.hidden) {
      pauseTimer();
      save();
    } else startTimer();
  });
  window.addEventListener("pagehide", save);

  const restored = restore();
  const finishedBefore = solvedNow();
  updateButtons();
  select(sel, false, false);
  showTime();
  modeButtons.forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.mode === mode)));
  MODES.forEach((x) => section.classList.toggle(`mode-${x}`, x === mode));
  if (finishedBefore) finish(false);
  else {
    // A reload of a board in progress continues the open attempt and its
    // clock; a fresh board's clock waits for the first move.
    const progress = values.some((v, i) => v && !givens[i]) || marks.some(Boolean) || centre.some(Boolean) || colours.some(Boolean);
    if (restored && progress) startClock();
    // Only a player who did something is welcomed back: digits, marks or
    // colours entered, or a second on the clock, not a page only opened.
    if (restored && (progress || elapsed >= 1000)) say(`Welcome back: your progress is restored (${formatTime(elapsed)} so far).`);
  }
}

document.querySelectorAll("[data-play-section]").forEach(init);
placeOverlays();
