// Sudoku Archive: the solving board of the puzzle page and of a shared
// puzzle (templates/play.templ). The page renders the givens; this module
// makes the board playable: digits and pencil marks from the keyboard or the
// number pad, undo and redo, conflicts and highlights, Check, Hint, a timer
// that pauses while the tab is hidden, and the player's progress kept in
// localStorage per puzzle.
//
// Every keystroke changes a model (values, marks) and then paints only the
// cells whose look changed, from per-cell caches, so a keystroke costs well
// under a frame.
import { PEERS, cellName, candidatesOf, conflictsOf, digitsOf, formatTime, maskAttr, paintMarks, prepareCell, rowOf, colOf, boxOf } from "./grid.js";
import { format } from "./puzzletext.js";
import { recorder } from "./attempt.js";
import { goNext } from "./next.js";
import { overlayOf, drawStep } from "./draw.js";

const HINT_URL = "/api/hint";

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
  const ctl = {};
  section.querySelectorAll("[data-play]").forEach((el) => { ctl[el.dataset.play] = el; });
  const storeKey = `sudoku:play:${givensText}`;
  const puzzleId = +section.dataset.puzzleId || 0;
  // practice is the technique practised (the page's ?practice=, shown in
  // its banner): hints go to its next step, and the attempt is marked.
  const banner = document.querySelector("[data-practice]");
  const practice = banner ? banner.dataset.practice : "";
  let rec = recorder(puzzleId, null, practice); // the attempt (attempt.js); restore brings back its counts

  // The model.
  const values = Uint8Array.from(givens);
  const marks = new Uint16Array(81);
  const wrong = new Uint8Array(81); // marked by Check or a refused hint, until the cell changes
  let undoStack = [], redoStack = [];
  let sel = givens.indexOf(0) >= 0 ? givens.indexOf(0) : 0;
  let pencil = false;
  let hint = null; // the step a hint shows: {cells: Set, good: Map, struck: Map, step}
  let drawn = null; // the hint drawn over the board (drawHint)
  let elapsed = 0, runningSince = null, done = false, tick = 0;

  // What each cell shows, as last painted.
  const parts = tds.map((td) => prepareCell(td));
  const painted = tds.map(() => ({ text: null, cls: null, marks: null, struck: null, good: null, label: null }));
  tds.forEach((td, i) => {
    td.setAttribute("role", "gridcell");
    td.tabIndex = i === sel ? 0 : -1;
  });
  table.setAttribute("role", "grid");
  section.classList.add("play-ready");

  function say(msg) {
    if (ctl.status) ctl.status.textContent = msg;
  }

  // paint brings every cell's look in line with the model, writing only what
  // changed.
  function paint() {
    const conflicts = conflictsOf(values);
    const sv = values[sel];
    const sr = rowOf(sel), sc = colOf(sel), sb = boxOf(sel);
    for (let i = 0; i < 81; i++) {
      const v = values[i];
      let cls = givens[i] ? "given" : v ? "entered" : "empty";
      if (i === sel) cls += " selected";
      else if (rowOf(i) === sr || colOf(i) === sc || boxOf(i) === sb) cls += " peer";
      if (sv && v === sv) cls += " same-digit";
      if (conflicts[i] && !givens[i]) cls += " conflict";
      else if (conflicts[i]) cls += " conflict-given";
      if (wrong[i]) cls += " wrong";
      if (hint && hint.cells.has(i)) cls += " hint-cell";
      const p = painted[i], part = parts[i];
      if (p.cls !== cls) { tds[i].className = cls; p.cls = cls; }
      const text = v ? String(v) : "";
      if (p.text !== text) { part.v.textContent = text; p.text = text; }
      const mm = v ? 0 : marks[i];
      const struck = hint && hint.struck.has(i) ? hint.struck.get(i) : 0;
      const good = hint && hint.good.has(i) ? hint.good.get(i) : 0;
      if (p.marks !== mm || p.struck !== struck || p.good !== good) {
        paintMarks(part.marks, mm, struck, good);
        p.marks = mm; p.struck = struck; p.good = good;
      }
      const m = maskAttr(mm);
      let label = `${cellName(i)}, `;
      if (givens[i]) label += `given ${v}`;
      else if (v) label += String(v);
      else label += m ? `empty, pencil marks ${m}` : "empty";
      if (conflicts[i]) label += ", clashes with another cell";
      if (wrong[i]) label += ", wrong";
      if (p.label !== label) { tds[i].setAttribute("aria-label", label); p.label = label; }
    }
    if (drawn !== hint) { drawn = hint; drawHint(); }
  }

  function select(i, focus) {
    if (i < 0 || i > 80) return;
    tds[sel].tabIndex = -1;
    tds[sel].removeAttribute("aria-selected");
    sel = i;
    tds[i].tabIndex = 0;
    tds[i].setAttribute("aria-selected", "true");
    if (focus) tds[i].focus();
    paint();
  }

  // change applies edits, each [cell, value, marks], as one undoable action.
  function change(edits, message) {
    if (done) return;
    const action = [];
    for (const [i, v, m] of edits) {
      if (givens[i] || (values[i] === v && marks[i] === m)) continue;
      action.push([i, values[i], marks[i], v, m]);
    }
    if (!action.length) return;
    startClock(); // the first move opens the attempt, and starts the clock
    undoStack.push(action);
    redoStack = [];
    applyAction(action, true);
    after(message);
  }

  function applyAction(action, forward) {
    for (const [i, v0, m0, v1, m1] of action) {
      values[i] = forward ? v1 : v0;
      marks[i] = forward ? m1 : m0;
      wrong[i] = 0;
    }
  }

  function after(message) {
    hint = null;
    if (ctl.hint) ctl.hint.hidden = true;
    updateButtons();
    const finished = values.every(Boolean) && !conflictsOf(values).some(Boolean);
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
    const [i] = action[0];
    return `${cellName(i)}`;
  }

  // place puts digit d in cell i, or clears it (d = 0). A digit placed also
  // leaves the pencil marks of its peers.
  function place(i, d) {
    if (givens[i]) {
      say(`${cellName(i)} is a given.`);
      return;
    }
    if (!d) {
      change([[i, 0, values[i] ? marks[i] : 0]], `${cellName(i)} cleared.`);
      return;
    }
    if (solution && solution[i] !== d) rec.mistake();
    const bit = 1 << d;
    const edits = [[i, d, 0]];
    for (const p of PEERS[i]) if (!values[p] && marks[p] & bit) edits.push([p, 0, marks[p] & ~bit]);
    change(edits, `${cellName(i)}: ${d}.`);
  }

  function toggleMark(i, d) {
    if (givens[i] || values[i]) {
      say(`${cellName(i)} holds a digit: clear it to pencil in marks.`);
      return;
    }
    const m = marks[i] ^ (1 << d);
    change([[i, 0, m]], `${cellName(i)}: pencil mark ${d} ${m & (1 << d) ? "added" : "removed"}.`);
  }

  function input(d) {
    if (pencil && d) toggleMark(sel, d);
    else place(sel, d);
  }

  function setPencil(on) {
    pencil = on;
    if (ctl.pencil) ctl.pencil.setAttribute("aria-pressed", String(on));
    section.classList.toggle("pencil-on", on);
    say(on ? "Pencil marks on: digits pencil in candidates." : "Pencil marks off: digits fill cells.");
  }

  function autoCandidates() {
    const cands = candidatesOf(values);
    const edits = [];
    for (let i = 0; i < 81; i++) if (!values[i]) edits.push([i, 0, cands[i]]);
    change(edits, "Every empty cell now shows its candidates.");
  }

  function restart() {
    const edits = [];
    for (let i = 0; i < 81; i++) if (!givens[i]) edits.push([i, 0, 0]);
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
    if (bad.length) say(`${bad.length === 1 ? "1 cell is" : `${bad.length} cells are`} wrong, marked on the board: ${bad.map(cellName).join("; ")}.`);
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
  // the digits and the pencil marks ("" where a cell shows none).
  function hintBody() {
    const candidates = Array.from(marks, (m, i) => (values[i] ? "" : digitsOf(m).join("")));
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
    const shown = Uint16Array.from(marks, (m, i) => (values[i] ? 0 : m));
    const computed = candidatesOf(values);
    for (let i = 0; i < 81; i++) if (!shown[i]) shown[i] = computed[i];
    drawStep(overlayOf(table), hint ? hint.step : null, shown);
  }

  function applyHint() {
    if (!hint) return;
    const edits = new Map();
    const v = Uint8Array.from(values), m = Uint16Array.from(marks);
    for (const [i, mask] of hint.good) {
      const d = digitsOf(mask)[0];
      v[i] = d;
      m[i] = 0;
      edits.set(i, true);
      for (const p of PEERS[i]) if (!v[p] && m[p] & (1 << d)) { m[p] &= ~(1 << d); edits.set(p, true); }
    }
    for (const [i, mask] of hint.struck) if (!v[i]) { m[i] &= ~mask; edits.set(i, true); }
    change([...edits.keys()].map((i) => [i, v[i], m[i]]), "Hint applied.");
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
      const cands = candidatesOf(values);
      let fewest = 10;
      for (let i = 0; i < 81; i++) {
        if (values[i]) continue;
        const n = digitsOf(cands[i]).length;
        if (n < fewest) { fewest = n; best = i; }
      }
    }
    if (best < 0) return;
    rec.hint("");
    select(best, table.contains(document.activeElement));
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

  function finish() {
    pauseTimer();
    section.classList.remove("paused");
    done = true;
    section.classList.add("finished");
    updateButtons();
    const t = formatTime(elapsed);
    if (ctl.done) {
      ctl["done-time"].textContent = t;
      ctl.done.hidden = false;
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
      if (ok && ctl.recorded) ctl.recorded.hidden = false;
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

  function save() {
    try {
      localStorage.setItem(storeKey, JSON.stringify({ v: format(values), m: Array.from(marks), t: Math.round(timeNow()), done, r: rec.state }));
    } catch { /* storage full or disabled: progress is not kept */ }
  }

  function restore() {
    let saved = null;
    try { saved = JSON.parse(localStorage.getItem(storeKey) || "null"); } catch { saved = null; }
    if (!saved || typeof saved.v !== "string" || saved.v.length !== 81) return false;
    const v = digitsFrom(saved.v);
    for (let i = 0; i < 81; i++) if (givens[i] && v[i] !== givens[i]) return false;
    values.set(v);
    if (Array.isArray(saved.m) && saved.m.length === 81) marks.set(saved.m.map((x) => x & 0x3fe));
    elapsed = Math.max(0, +saved.t || 0);
    rec = recorder(puzzleId, saved.r, practice);
    return true;
  }

  // Keyboard: the board is one tab stop; arrows move; digits fill; Shift
  // with a digit (or P to switch) pencils in; Backspace, Delete, 0 or .
  // clear; Ctrl+Z and Ctrl+Y (or Ctrl+Shift+Z) undo and redo anywhere.
  table.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const k = e.key;
    const r = rowOf(sel), c = colOf(sel);
    const m = /^(?:Digit|Numpad)([1-9])$/.exec(e.code);
    if (k >= "1" && k <= "9" && !e.shiftKey) input(+k);
    else if (m && e.shiftKey) toggleMark(sel, +m[1]);
    else if (k === "Backspace" || k === "Delete" || k === "0" || k === ".") place(sel, 0);
    else if (k === "p" || k === "P") setPencil(!pencil);
    else if (k === "ArrowRight") select(c < 8 ? sel + 1 : r * 9, true);
    else if (k === "ArrowLeft") select(c > 0 ? sel - 1 : r * 9 + 8, true);
    else if (k === "ArrowDown") select(r < 8 ? sel + 9 : c, true);
    else if (k === "ArrowUp") select(r > 0 ? sel - 9 : 72 + c, true);
    else if (k === "Home") select(e.ctrlKey ? 0 : r * 9, true);
    else if (k === "End") select(r * 9 + 8, true);
    else return;
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

  table.addEventListener("click", (e) => {
    const td = e.target.closest("td[data-cell]");
    if (td) select(+td.dataset.cell, true);
  });

  table.addEventListener("focusin", (e) => {
    const td = e.target.closest("td[data-cell]");
    if (td && +td.dataset.cell !== sel) select(+td.dataset.cell, false);
  });

  section.addEventListener("click", (e) => {
    const b = e.target.closest("button[data-digit], button[data-act]");
    if (!b || !section.contains(b)) return;
    if (b.dataset.digit !== undefined) return input(+b.dataset.digit);
    const acts = { pencil: () => setPencil(!pencil), undo, redo, auto: autoCandidates, check, hint: askHint, restart, giveup: giveUp, "hint-apply": applyHint, "hint-close": () => { hint = null; ctl.hint.hidden = true; paint(); },
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
  const finishedBefore = values.every(Boolean) && !conflictsOf(values).some(Boolean);
  updateButtons();
  select(sel, false);
  showTime();
  if (finishedBefore) finish();
  else {
    // A reload of a board in progress continues the open attempt and its
    // clock; a fresh board's clock waits for the first move.
    if (restored && (values.some((v, i) => v && !givens[i]) || marks.some(Boolean))) startClock();
    // Only a player who did something is welcomed back: digits or marks
    // entered, or a second on the clock, not a page that was only opened.
    const progress = values.some((v, i) => v && !givens[i]) || marks.some(Boolean) || elapsed >= 1000;
    if (restored && progress) say(`Welcome back: your progress is restored (${formatTime(elapsed)} so far).`);
  }
}

document.querySelectorAll("[data-play-section]").forEach(init);
