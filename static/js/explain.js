// Sudoku Archive: the logical explanation on the puzzle page
// (templates/play.templ, ExplainSection). It fetches the solver's path from
// /api/puzzles/{id}/explain and walks it on its own board, one step at a
// time: the step's cells highlighted, the candidates it eliminates struck,
// the digits it places picked out, the pattern drawn over the board (a
// chain's links, draw.js), and its sentence under the board.
// Candidates are kept by replaying the steps from the givens: every digit
// no placed peer rules out, then each step's placements and eliminations.
// A forcing chain that compares branches (its step lists them) is drawn
// one branch at a time if the reader asks: the branches are listed under
// the buttons, ↑ and ↓ (or ▲ and ▼) step through them, "All branches" (or
// a) shows them together, each branch in its own colour.
// It also opens the analysis (the solution, the replay and this section)
// at once for a visitor who asked for that once.
import { PEERS, candidatesOf, paintMarks, prepareCell, cellName } from "./grid.js";
import { overlayOf, drawStep, BRANCH_COLOURS } from "./draw.js";

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
  // br is the branch drawn (-1: all of them); listed, the step whose
  // branches the list holds.
  let br = -1, listed = -1;

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
    drawStep(overlayOf(table), s, cands, { branch: br });
    renderBranches(s);
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

  // branchesOf returns the step's branches when it has some to step through.
  const branchesOf = (s) => (s && Array.isArray(s.branches) && s.branches.length > 1 ? s.branches : null);
  const nodeText = (n) => `r${Math.floor(n.cell / 9) + 1}c${(n.cell % 9) + 1}${n.on ? "=" : "≠"}${n.digit}`;

  // renderBranches shows the branch controls of step s (hidden for a step
  // without branches), lists its branches once, and says which is drawn.
  function renderBranches(s) {
    const bs = branchesOf(s);
    ctl.branches.hidden = !bs;
    ctl["branch-text"].hidden = !bs;
    if (!bs) return;
    if (listed !== pos) {
      listed = pos;
      ctl["branch-list"].replaceChildren(...bs.map((b, k) => {
        const li = document.createElement("li");
        const btn = document.createElement("button");
        btn.type = "button";
        btn.className = "button button-small";
        btn.dataset.branch = String(k);
        btn.dataset.testid = "explain-branch-item";
        const sw = document.createElement("span");
        sw.className = `branch-swatch branch-${k % BRANCH_COLOURS}`;
        sw.setAttribute("aria-hidden", "true");
        btn.append(sw, `${k + 1}: ${nodeText(b.assumption)}`);
        btn.addEventListener("click", () => showBranch(k));
        li.append(btn);
        return li;
      }));
    }
    ctl["branch-list"].querySelectorAll("button").forEach((b) => b.setAttribute("aria-pressed", String(+b.dataset.branch === br)));
    ctl["branch-all"].setAttribute("aria-pressed", String(br < 0));
    const end = bs[0].conclusion;
    const contradiction = bs.some((b) => b.conclusion.on !== end.on);
    if (br < 0) {
      ctl["branch-label"].textContent = "All branches";
      ctl["branch-text"].textContent = contradiction
        ? `Both branches start from ${nodeText(bs[0].assumption)}: one reaches ${nodeText(bs[0].conclusion)}, the other ${nodeText(bs[1].conclusion)}, a contradiction.`
        : `All ${bs.length} branches reach ${nodeText(end)} (the ringed candidate), whichever assumption is true.`;
      return;
    }
    const b = bs[br], n = (b.links || []).length;
    ctl["branch-label"].textContent = `Branch ${br + 1} of ${bs.length}`;
    ctl["branch-text"].textContent = `Branch ${br + 1} of ${bs.length}: if ${nodeText(b.assumption)}, then ${n === 1 ? "1 link leads" : `${n} links lead`} to ${nodeText(b.conclusion)}.`;
  }

  // showBranch draws branch k of the step (-1: all), the board unchanged.
  function showBranch(k) {
    const bs = branchesOf(steps[pos]);
    if (!bs) return;
    br = k;
    render();
  }

  // stepBranch moves by one through All, 1, 2, ..., n and round again.
  function stepBranch(by) {
    const bs = branchesOf(steps[pos]);
    if (!bs) return;
    showBranch(((br + 1 + by + bs.length + 1) % (bs.length + 1)) - 1);
  }

  function go(to) {
    if (!snaps.length) return;
    const was = pos;
    pos = Math.max(0, Math.min(steps.length, to));
    if (pos !== was) br = -1;
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
  ctl["branch-all"].addEventListener("click", () => showBranch(-1));
  ctl["branch-prev"].addEventListener("click", () => stepBranch(-1));
  ctl["branch-next"].addEventListener("click", () => stepBranch(1));
  section.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || e.target.closest("input, select, textarea")) return;
    const turns = { ArrowUp: -1, ArrowDown: 1 };
    if ((e.key in turns || e.key === "a") && branchesOf(steps[pos])) {
      e.preventDefault();
      if (e.key === "a") showBranch(-1);
      else stepBranch(turns[e.key]);
      return;
    }
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
