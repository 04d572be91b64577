// Sudoku Archive: the logical explanation on the puzzle page
// (templates/play.templ, ExplainSection). It fetches the solver's path from
// /api/puzzles/{id}/explain and walks it on its own board, one step at a
// time: the step's cells highlighted, the candidates it eliminates struck,
// the digits it places picked out, the pattern drawn over the board (a
// chain's links, draw.js), and its sentence under the board.
// Candidates are kept by replaying the steps from the givens: every digit
// no placed peer rules out, then each step's placements and eliminations.
// It also opens the analysis (the solution, the replay and this section)
// at once for a visitor who asked for that once.
import { PEERS, candidatesOf, paintMarks, prepareCell, cellName } from "./grid.js";
import { overlayOf, drawStep } from "./draw.js";

const ANALYSIS_KEY = "sudoku:open-analysis";

function initAnalysis() {
  const details = document.getElementById("analysis");
  const remember = document.querySelector("[data-remember-analysis]");
  if (!details) return;
  let stored = false;
  try { stored = localStorage.getItem(ANALYSIS_KEY) === "1"; } catch { stored = false; }
  if (remember) {
    remember.checked = stored;
    remember.addEventListener("change", () => {
      try {
        if (remember.checked) localStorage.setItem(ANALYSIS_KEY, "1");
        else localStorage.removeItem(ANALYSIS_KEY);
      } catch { /* the setting is not kept */ }
      if (remember.checked) details.open = true;
    });
  }
  if (stored) details.open = true;
}

function initExplain(section) {
  const table = section.querySelector("[data-explain-board]");
  const givensText = section.dataset.givens || "";
  const tds = [];
  table.querySelectorAll("td[data-cell]").forEach((td) => { tds[+td.dataset.cell] = td; });
  if (givensText.length !== 81 || tds.length !== 81) return;
  const ctl = {};
  section.querySelectorAll("[data-explain]").forEach((el) => { ctl[el.dataset.explain] = el; });
  const givens = Uint8Array.from(givensText, (ch) => (ch >= "1" && ch <= "9" ? ch.charCodeAt(0) - 48 : 0));
  const parts = tds.map((td) => prepareCell(td));

  let steps = [], snaps = [], pos = 0, loading = null;

  // prepare replays the path once: snaps[k] is the grid and the candidates
  // after k steps.
  function prepare(path) {
    steps = Array.isArray(path.steps) ? path.steps : [];
    let values = Uint8Array.from(givens);
    let cands = candidatesOf(values);
    snaps = [{ values, cands }];
    for (const s of steps) {
      values = Uint8Array.from(values);
      cands = Uint16Array.from(cands);
      for (const { cell, digit } of s.placements || []) {
        values[cell] = digit;
        cands[cell] = 0;
        for (const p of PEERS[cell]) cands[p] &= ~(1 << digit);
      }
      for (const { cell, digit } of s.eliminations || []) cands[cell] &= ~(1 << digit);
      snaps.push({ values, cands });
    }
    if (ctl.summary && path.grade) {
      ctl.summary.textContent = `Grade ${path.grade}${path.grade_floor ? " at least" : ""}: the hardest technique needed is ${path.technique}. ${steps.length === 1 ? "1 step" : `${steps.length} steps`}.`;
    }
  }

  function render() {
    const { values, cands } = snaps[pos];
    const s = pos < steps.length ? steps[pos] : null;
    const good = new Map(), struck = new Map(), hot = new Set(s ? s.cells || [] : []);
    if (s) {
      for (const { cell, digit } of s.placements || []) { good.set(cell, (good.get(cell) || 0) | (1 << digit)); hot.add(cell); }
      for (const { cell, digit } of s.eliminations || []) { struck.set(cell, (struck.get(cell) || 0) | (1 << digit)); hot.add(cell); }
    }
    for (let i = 0; i < 81; i++) {
      const v = values[i];
      tds[i].className = (givens[i] ? "given" : v ? "placed" : "empty") + (hot.has(i) ? " hint-cell" : "");
      parts[i].v.textContent = v ? String(v) : "";
      paintMarks(parts[i].marks, v ? 0 : cands[i], struck.get(i) || 0, good.get(i) || 0);
    }
    drawStep(overlayOf(table), s, cands);
    ctl.back.disabled = pos === 0;
    ctl.forward.disabled = pos >= steps.length;
    if (s) {
      ctl.counter.textContent = `Step ${pos + 1} of ${steps.length} · ${s.technique}${s.grade ? ` (${s.grade})` : ""}`;
      ctl.text.textContent = s.text || "";
      table.setAttribute("aria-label", `Board before step ${pos + 1}; highlighted: ${[...hot].map(cellName).join("; ")}`);
    } else {
      ctl.counter.textContent = `Solved: ${steps.length === 1 ? "1 step" : `${steps.length} steps`}`;
      ctl.text.textContent = "Every cell is filled: the logical path ends here.";
      table.setAttribute("aria-label", "The solved board");
    }
  }

  function go(to) {
    if (!snaps.length) return;
    pos = Math.max(0, Math.min(steps.length, to));
    const had = document.activeElement;
    render();
    // The last step disables Next (the first, Back): a button that loses
    // its use loses the focus too, and the keys would stop with it. The
    // board takes the focus over, so Home, End and the arrows go on.
    if (had && had.disabled && section.contains(had)) table.focus();
  }

  function load() {
    if (loading) return loading;
    // A hard puzzle's path takes the server seconds to work out (issue
    // 46: 2.5-5 s): say so, rather than show nothing.
    ctl.counter.textContent = "Working out the explanation… a hard puzzle's takes a few seconds.";
    loading = fetch(section.dataset.explainUrl, { headers: { Accept: "application/json" } })
      .then((r) => {
        if (r.status === 404 || r.status === 405) throw new Error("unavailable");
        if (!r.ok) throw new Error(`the server answered ${r.status}`);
        return r.json();
      })
      .then((path) => {
        prepare(path);
        section.classList.add("explain-ready");
        go(0);
      })
      .catch((err) => {
        if (err.message === "unavailable") {
          ctl.counter.textContent = "The logical explanation is not available for this puzzle.";
          section.classList.add("explain-missing");
        } else {
          loading = null;
          ctl.counter.textContent = `Could not load the explanation (${err.message}). Open this section again to retry.`;
        }
      });
    return loading;
  }

  ctl.back.addEventListener("click", () => go(pos - 1));
  ctl.forward.addEventListener("click", () => go(pos + 1));
  section.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || e.target.closest("input, select, textarea")) return;
    const moves = { ArrowLeft: pos - 1, ArrowRight: pos + 1, Home: 0, End: steps.length };
    if (!(e.key in moves)) return;
    e.preventDefault();
    go(moves[e.key]);
  });

  section.hidden = false;
  const details = section.closest("details");
  if (!details || details.open) load();
  else details.addEventListener("toggle", () => { if (details.open) load(); });
}

initAnalysis();
document.querySelectorAll("[data-explain-section]").forEach(initExplain);
