// Sudoku Archive: the practice page (/techniques/{slug}/practice,
// templates/techniques.templ PracticePage). The server draws a board at
// which a technique is the next step, with its candidates; here the player
// picks candidates: a tap selects a cell, then the pad's digits pick its
// candidates (a pencil mark, a third of a cell, is too small a target on
// a phone: issue 46); a mouse click on a pencil mark picks it at once; on
// a focused cell the digit keys pick. Check compares them with the step (the
// candidates it removes, else the digit it places), and Show me draws the
// step: its cells, the candidates struck or placed, the chain's links.
import { paintMarks, cellName } from "./grid.js";
import { overlayOf, drawStep } from "./draw.js";

function init(section) {
  let data;
  try { data = JSON.parse(section.dataset.position || "{}"); } catch { return; }
  const step = data.step, cands = Uint16Array.from(data.candidates || []);
  const table = section.querySelector("[data-testid=practice-board]");
  if (!step || !table || cands.length !== 81) return;
  const tds = [];
  table.querySelectorAll("td[data-cell]").forEach((td) => { tds[+td.dataset.cell] = td; });
  const ctl = {};
  section.querySelectorAll("[data-practice]").forEach((b) => { ctl[b.dataset.practice] = b; });
  const picked = new Uint16Array(81);
  // The answer: the candidates the step removes, else the digits it places.
  const answer = new Uint16Array(81);
  const list = step.eliminations && step.eliminations.length ? step.eliminations : step.placements || [];
  for (const { cell, digit } of list) answer[cell] |= 1 << digit;
  let shown = false;
  // sel: the cell the pad picks in (-1: none yet).
  let sel = -1;
  const pad = ctl.pad ? [...ctl.pad.querySelectorAll("button[data-digit]")] : [];

  function say(msg, kind) {
    ctl.status.textContent = msg;
    ctl.status.classList.toggle("status-ok", kind === "ok");
    ctl.status.classList.toggle("status-error", kind === "error");
  }

  // paint shows each cell's candidates with the picks, or the step drawn.
  function paint() {
    const good = new Map(), struck = new Map(), hot = new Set();
    if (shown) {
      for (const { cell, digit } of step.placements || []) { good.set(cell, (good.get(cell) || 0) | (1 << digit)); hot.add(cell); }
      for (const { cell, digit } of step.eliminations || []) { struck.set(cell, (struck.get(cell) || 0) | (1 << digit)); hot.add(cell); }
      for (const c of step.cells || []) hot.add(c);
    }
    for (let i = 0; i < 81; i++) {
      const marks = tds[i].querySelector(".marks");
      if (!cands[i] || !marks) continue;
      paintMarks(marks, cands[i], struck.get(i) || 0, good.get(i) || 0);
      if (!shown) {
        for (let d = 1; d <= 9; d++) if (picked[i] & (1 << d)) marks.children[d - 1].dataset.mark = "picked";
      }
      tds[i].classList.toggle("hint-cell", hot.has(i));
      const p = [];
      for (let d = 1; d <= 9; d++) if (picked[i] & (1 << d)) p.push(d);
      tds[i].setAttribute("aria-label", `${cellName(i)}, candidates ${marks.dataset.marks}${p.length ? `, picked ${p.join(" ")}` : ""}`);
    }
    drawStep(overlayOf(table), shown ? step : null, cands);
    paintPad();
  }

  // paintPad offers the selected cell's candidates, pressed where picked.
  function paintPad() {
    tds.forEach((td, i) => td.classList.toggle("practice-selected", i === sel));
    for (const b of pad) {
      const bit = 1 << +b.dataset.digit;
      b.disabled = shown || sel < 0 || !(cands[sel] & bit);
      b.setAttribute("aria-pressed", String(sel >= 0 && !!(picked[sel] & bit)));
    }
    if (ctl["pad-label"]) {
      ctl["pad-label"].textContent = sel < 0 ? "Tap a cell, then pick its candidates here." : `Candidates of ${cellName(sel)}:`;
    }
  }

  function select(i) {
    if (sel === i) return;
    sel = i;
    paintPad();
  }

  function toggle(i, d) {
    if (shown || !(cands[i] & (1 << d))) return;
    picked[i] ^= 1 << d;
    say("");
    paint();
  }

  table.addEventListener("click", (e) => {
    const td = e.target.closest("td[data-cell]");
    if (!td) return;
    const i = +td.dataset.cell;
    if (!cands[i]) return;
    select(i);
    // A touch or a pen only selects: the pad picks. A mouse is precise
    // enough to pick the pencil mark under it.
    if (e.pointerType === "touch" || e.pointerType === "pen") return;
    const r = td.getBoundingClientRect();
    const col = Math.min(2, Math.floor(((e.clientX - r.left) / r.width) * 3));
    const row = Math.min(2, Math.floor(((e.clientY - r.top) / r.height) * 3));
    toggle(i, row * 3 + col + 1);
  });
  // Keyboard: a cell takes the focus (Tab), a digit key picks that digit.
  tds.forEach((td, i) => { if (cands[i]) td.tabIndex = 0; });
  table.addEventListener("focusin", (e) => {
    const td = e.target.closest("td[data-cell]");
    if (td && cands[+td.dataset.cell]) select(+td.dataset.cell);
  });
  for (const b of pad) b.addEventListener("click", () => { if (sel >= 0) toggle(sel, +b.dataset.digit); });
  table.addEventListener("keydown", (e) => {
    const td = e.target.closest("td[data-cell]");
    if (!td || e.key < "1" || e.key > "9") return;
    e.preventDefault();
    toggle(+td.dataset.cell, e.key.charCodeAt(0) - 48);
  });

  function check() {
    let right = 0, wrong = 0, want = 0;
    for (let i = 0; i < 81; i++) {
      for (let d = 1; d <= 9; d++) {
        const bit = 1 << d;
        if (answer[i] & bit) want++;
        if (picked[i] & bit) { if (answer[i] & bit) right++; else wrong++; }
      }
    }
    if (right === want && wrong === 0) {
      shown = true;
      paint();
      say(`Right. ${step.text}`, "ok");
      return;
    }
    if (right + wrong === 0) {
      say("Pick the candidates first: tap a cell, then its candidates on the pad.", "error");
      return;
    }
    const parts = [`${right} of the ${want} ${want === 1 ? "candidate" : "candidates"} of the step`];
    if (wrong) parts.push(`${wrong} picked ${wrong === 1 ? "is" : "are"} not part of it`);
    say(`Not yet: ${parts.join("; ")}. Try again, or press Show me.`, "error");
  }

  ctl.check.addEventListener("click", check);
  ctl.show.addEventListener("click", () => { shown = true; paint(); say(step.text, "ok"); });
  ctl.clear.addEventListener("click", () => { shown = false; picked.fill(0); say(""); paint(); });
  paint();
}

document.querySelectorAll("[data-practice-section]").forEach(init);
