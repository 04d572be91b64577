// Sudoku Archive: progressive enhancement for the server-rendered pages.
// Every page works without this file; with it the grid editor takes typing
// and pasting, Copy buttons copy, Print buttons print, and the history's
// filters apply on change. A module, no build step, no inline handlers
// (the CSP forbids them).
import { scan } from "./puzzletext.js";
import { UNITS, PEERS } from "./grid.js";

const root = document.documentElement;
root.classList.replace("no-js", "js");

function initEditor(table) {
  const form = table.closest("form");
  const text = form && form.querySelector("textarea[name=puzzle]");
  const status = form && form.querySelector("[data-grid-status]");
  const inputs = [...table.querySelectorAll("input[data-cell]")];
  if (!text || inputs.length !== 81) return;

  // One tab stop for the whole grid (a roving tabindex): the first clashing
  // cell after a rejected post, else the first cell.
  let active = 0;
  let firstBad = -1;
  inputs.forEach((input, i) => {
    input.readOnly = false;
    if (firstBad < 0 && input.getAttribute("aria-invalid") === "true") firstBad = i;
  });
  setActive(Math.max(firstBad, 0), false);

  function say(msg, isError) {
    if (!status) return;
    status.textContent = msg || "";
    status.classList.toggle("status-error", !!isError);
  }

  function value(i) {
    const v = inputs[i].value;
    return v >= "1" && v <= "9" ? v.charCodeAt(0) - 48 : 0;
  }

  function setActive(i, focus) {
    inputs[active].tabIndex = -1;
    active = i;
    inputs[i].tabIndex = 0;
    if (focus) inputs[i].focus();
  }

  // gridText is the grid as nine lines of nine, '.' for blanks.
  function gridText() {
    const lines = [];
    for (let r = 0; r < 9; r++) {
      let line = "";
      for (let c = 0; c < 9; c++) line += value(r * 9 + c) || ".";
      lines.push(line);
    }
    return lines.join("\n");
  }

  const isEmpty = () => inputs.every((_, i) => !value(i));

  // changed runs after every edit in the grid: the paste box follows the
  // grid, and clashing givens are marked as they appear.
  function changed() {
    text.value = isEmpty() ? "" : gridText();
    text.removeAttribute("aria-invalid");
    markConflicts();
    highlightPeers(active);
  }

  function markConflicts() {
    const bad = new Set();
    let first = "";
    for (const u of UNITS) {
      const seen = new Map();
      for (const i of u.cells) {
        const v = value(i);
        if (!v) continue;
        if (seen.has(v)) {
          bad.add(i).add(seen.get(v));
          if (!first) first = `${u.name} has two ${v}s.`;
        } else {
          seen.set(v, i);
        }
      }
    }
    inputs.forEach((input, i) => {
      input.parentElement.classList.toggle("conflict", bad.has(i));
      if (bad.has(i)) input.setAttribute("aria-invalid", "true");
      else input.removeAttribute("aria-invalid");
    });
    if (first) say(`${first} The clashing cells are marked.`, true);
    else if (status && status.classList.contains("status-error")) say("");
  }

  function highlightPeers(i) {
    const peers = new Set(PEERS[i]);
    const v = value(i);
    inputs.forEach((input, j) => {
      const td = input.parentElement;
      td.classList.toggle("peer", peers.has(j));
      td.classList.toggle("same-digit", v !== 0 && value(j) === v);
    });
  }

  const set = (i, v) => { inputs[i].value = v ? String(v) : ""; };

  function fill(cells, from) {
    for (let k = 0; k < cells.length && from + k < 81; k++) set(from + k, cells[k]);
  }

  function move(i) {
    if (i >= 0 && i <= 80) setActive(i, true);
  }

  table.addEventListener("focusin", (e) => {
    const i = inputs.indexOf(e.target);
    if (i < 0) return;
    setActive(i, false);
    highlightPeers(i);
    // Select the digit so a screen reader announces it and typing replaces it.
    e.target.select();
  });

  table.addEventListener("focusout", (e) => {
    if (table.contains(e.relatedTarget)) return;
    for (const input of inputs) input.parentElement.classList.remove("peer", "same-digit");
  });

  table.addEventListener("keydown", (e) => {
    const i = inputs.indexOf(e.target);
    if (i < 0 || e.ctrlKey || e.metaKey || e.altKey) return;
    const r = Math.floor(i / 9), c = i % 9;
    switch (e.key) {
      case "Backspace":
        if (value(i) || i === 0) {
          set(i, 0);
        } else {
          move(i - 1);
          set(i - 1, 0);
        }
        changed();
        break;
      case "Delete":
        set(i, 0);
        changed();
        break;
      case "ArrowRight": move(i + 1); break;
      case "ArrowLeft": move(i - 1); break;
      case "ArrowDown": move(r < 8 ? i + 9 : c); break;
      case "ArrowUp": move(r > 0 ? i - 9 : 72 + c); break;
      case "Home": move(r * 9); break;
      case "End": move(r * 9 + 8); break;
      default:
        return; // typed characters arrive as beforeinput; Tab and Enter do what they always do
    }
    e.preventDefault();
  });

  // typed puts what was typed into cell i: a digit fills it, 0 . or a
  // space clears it, and either moves on to the next cell; more than one
  // character (autofill, an input method) counts as a paste.
  function typed(i, data) {
    if (data.length !== 1) {
      pasteText(i, data);
    } else if (data >= "1" && data <= "9") {
      set(i, data.charCodeAt(0) - 48);
      changed();
      if (i < 80) move(i + 1);
    } else if (data === "0" || data === "." || data === " ") {
      set(i, 0);
      changed();
      if (i < 80) move(i + 1);
    } else {
      say("Only the digits 1 to 9 go in a cell; 0, . or Delete clears it.", true);
    }
  }

  // Typing is taken at beforeinput rather than keydown: it is what every
  // keyboard, on-screen ones included, and the DevTools protocol produce.
  table.addEventListener("beforeinput", (e) => {
    const i = inputs.indexOf(e.target);
    if (i < 0 || !e.data || !e.inputType.startsWith("insert") || e.inputType === "insertFromPaste") return;
    e.preventDefault();
    typed(i, e.data);
  });

  // input catches what beforeinput could not stop (some input methods
  // compose text uncancellably): keep the last digit typed, if any.
  table.addEventListener("input", (e) => {
    const i = inputs.indexOf(e.target);
    if (i < 0) return;
    const m = e.target.value.match(/[1-9](?!.*[1-9])/);
    set(i, m ? +m[0] : 0);
    changed();
    if (m && i < 80) move(i + 1);
  });

  // Pasting a whole puzzle into any cell fills the grid; a shorter run of
  // cells fills from the cell pasted into.
  function pasteText(i, data) {
    const p = scan(data);
    const n = p.cells.length;
    if (p.error) {
      say(`Not pasted: ${p.error}.`, true);
    } else if (n === 81) {
      fill(p.cells, 0);
      changed();
      const clues = p.cells.filter(Boolean).length;
      if (!table.querySelector("td.conflict")) say(`Pasted a whole puzzle: ${clues} clues.`);
    } else if (n > 81) {
      say(`Not pasted: expected 81 cells, got ${n}.`, true);
    } else if (n > 0) {
      fill(p.cells, i);
      changed();
      move(Math.min(i + n, 80));
      if (!table.querySelector("td.conflict")) say(`Pasted ${n} ${n === 1 ? "cell" : "cells"}.`);
    }
  }

  table.addEventListener("paste", (e) => {
    const i = inputs.indexOf(e.target);
    if (i < 0) return;
    e.preventDefault();
    pasteText(i, e.clipboardData.getData("text"));
  });

  // The paste box drives the grid too, once it holds a whole puzzle.
  text.addEventListener("input", () => {
    const p = scan(text.value);
    const n = p.cells.length;
    if (p.error) {
      say(`${p.error[0].toUpperCase()}${p.error.slice(1)}.`, true);
    } else if (n === 81) {
      fill(p.cells, 0);
      markConflicts();
      if (!table.querySelector("td.conflict")) say("The grid shows the text's puzzle.");
    } else if (n === 0) {
      fill(new Array(81).fill(0), 0);
      markConflicts();
      say("");
    } else {
      say(`The text has ${n} of 81 cells.`, n > 81);
    }
  });

  for (const a of form.querySelectorAll("[data-clear]")) {
    a.addEventListener("click", (e) => {
      e.preventDefault();
      fill(new Array(81).fill(0), 0);
      text.value = "";
      changed();
      form.querySelector("#form-error")?.remove();
      say("Cleared.");
      move(0);
    });
  }

  for (const a of form.querySelectorAll("[data-example]")) {
    a.addEventListener("click", (e) => {
      e.preventDefault();
      const p = scan(a.dataset.example);
      if (p.error || p.cells.length !== 81) return;
      fill(p.cells, 0);
      changed();
      say(`Loaded the example (${a.textContent.trim()}). Press Solve & archive to solve it.`);
    });
  }
}

// Copy buttons copy the text of the field they name; where the clipboard
// API is unavailable (plain http on another host) they select the text
// so Ctrl+C works.
function initCopy() {
  for (const button of document.querySelectorAll("[data-copy]")) {
    const field = document.getElementById(button.dataset.copy);
    if (!field) continue;
    const label = button.textContent;
    button.addEventListener("click", async () => {
      const done = (msg) => {
        button.textContent = msg;
        setTimeout(() => { button.textContent = label; }, 2000);
      };
      field.select();
      if (navigator.clipboard && window.isSecureContext) {
        try {
          await navigator.clipboard.writeText(field.value);
          done("Copied");
        } catch {
          done("Press Ctrl+C");
        }
        return;
      }
      let ok = false;
      try { ok = document.execCommand("copy"); } catch { ok = false; }
      done(ok ? "Copied" : "Press Ctrl+C");
    });
  }
}

// Print buttons print the page; the print stylesheet keeps the puzzle alone.
function initPrint() {
  for (const b of document.querySelectorAll("[data-print]")) b.addEventListener("click", () => window.print());
}

// Forms marked data-autosubmit apply a changed filter at once.
function initAutosubmit() {
  for (const form of document.querySelectorAll("form[data-autosubmit]")) {
    form.addEventListener("change", () => form.requestSubmit());
  }
}

// Forms marked data-confirm (a destructive act: deleting a collection) ask
// once before they are sent; without JavaScript the form posts at once, as
// any form does.
function initConfirm() {
  for (const form of document.querySelectorAll("form[data-confirm]")) {
    form.addEventListener("submit", (e) => {
      if (!window.confirm(form.dataset.confirm)) e.preventDefault();
    });
  }
}

document.querySelectorAll("[data-grid-editor]").forEach(initEditor);
initCopy();
initPrint();
initAutosubmit();
initConfirm();
