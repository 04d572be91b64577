// Sudoku Archive: progressive enhancement for the server-rendered pages.
// Every page works without this file; with it the grid editor takes typing
// and pasting, Copy buttons copy, and the history's filters apply on change.
// Plain JavaScript, no build step, no inline handlers (the CSP forbids them).
(function () {
  "use strict";

  var root = document.documentElement;
  root.classList.remove("no-js");
  root.classList.add("js");

  // Characters the puzzle text format ignores (see the README).
  var IGNORED = " \t\r\n|-+=";

  // parseCells reads puzzle text the way the server does. It returns
  // {cells: [0-9, ...]} or, at the first character that is no cell,
  // {cells, bad: char, pos: 1-based position}.
  function parseCells(text) {
    var cells = [];
    var pos = 0;
    for (var ch of text) {
      pos++;
      if (IGNORED.indexOf(ch) >= 0) continue;
      if (ch >= "1" && ch <= "9") cells.push(ch.charCodeAt(0) - 48);
      else if (ch === "0" || ch === ".") cells.push(0);
      else return { cells: cells, bad: ch, pos: pos };
    }
    return { cells: cells };
  }

  // unitsOf returns the row, column and box of cell i, each as 9 indexes.
  var UNITS = (function () {
    var units = [];
    for (var k = 0; k < 9; k++) {
      var row = [], col = [], box = [];
      for (var j = 0; j < 9; j++) {
        row.push(k * 9 + j);
        col.push(j * 9 + k);
        box.push((Math.floor(k / 3) * 3 + Math.floor(j / 3)) * 9 + (k % 3) * 3 + (j % 3));
      }
      units.push({ name: "Row " + (k + 1), cells: row });
      units.push({ name: "Column " + (k + 1), cells: col });
      units.push({ name: "Box " + (k + 1), cells: box });
    }
    return units;
  })();

  function peersOf(i) {
    var r = Math.floor(i / 9), c = i % 9;
    var b = Math.floor(r / 3) * 3 + Math.floor(c / 3);
    return [UNITS[r * 3], UNITS[c * 3 + 1], UNITS[b * 3 + 2]];
  }

  function initEditor(table) {
    var form = table.closest("form");
    var text = form && form.querySelector("textarea[name=puzzle]");
    var status = form && form.querySelector("[data-grid-status]");
    var inputs = Array.prototype.slice.call(table.querySelectorAll("input[data-cell]"));
    if (!text || inputs.length !== 81) return;

    // One tab stop for the whole grid (a roving tabindex): the first clashing
    // cell after a rejected post, else the first cell.
    var active = 0;
    var firstBad = -1;
    inputs.forEach(function (input, i) {
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
      var v = inputs[i].value;
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
      var lines = [];
      for (var r = 0; r < 9; r++) {
        var line = "";
        for (var c = 0; c < 9; c++) {
          var v = value(r * 9 + c);
          line += v ? String(v) : ".";
        }
        lines.push(line);
      }
      return lines.join("\n");
    }

    function isEmpty() {
      for (var i = 0; i < 81; i++) if (value(i)) return false;
      return true;
    }

    // changed runs after every edit in the grid: the paste box follows the
    // grid, and clashing givens are marked as they appear.
    function changed() {
      text.value = isEmpty() ? "" : gridText();
      text.removeAttribute("aria-invalid");
      markConflicts();
      highlightPeers(active);
    }

    function markConflicts() {
      var bad = {};
      var first = "";
      UNITS.forEach(function (u) {
        var seen = {};
        u.cells.forEach(function (i) {
          var v = value(i);
          if (!v) return;
          if (seen[v] !== undefined) {
            bad[i] = bad[seen[v]] = true;
            if (!first) first = u.name + " has two " + v + "s.";
          } else {
            seen[v] = i;
          }
        });
      });
      inputs.forEach(function (input, i) {
        var td = input.parentElement;
        td.classList.toggle("conflict", !!bad[i]);
        if (bad[i]) input.setAttribute("aria-invalid", "true");
        else input.removeAttribute("aria-invalid");
      });
      if (first) say(first + " The clashing cells are marked.", true);
      else if (status && status.classList.contains("status-error")) say("");
    }

    function highlightPeers(i) {
      var peers = {};
      peersOf(i).forEach(function (u) {
        u.cells.forEach(function (j) { peers[j] = true; });
      });
      var v = value(i);
      inputs.forEach(function (input, j) {
        var td = input.parentElement;
        td.classList.toggle("peer", j !== i && !!peers[j]);
        td.classList.toggle("same-digit", v !== 0 && value(j) === v);
      });
    }

    function set(i, v) {
      inputs[i].value = v ? String(v) : "";
    }

    function fill(cells, from) {
      for (var k = 0; k < cells.length && from + k < 81; k++) set(from + k, cells[k]);
    }

    function move(i) {
      if (i < 0 || i > 80) return;
      setActive(i, true);
    }

    table.addEventListener("focusin", function (e) {
      var i = inputs.indexOf(e.target);
      if (i < 0) return;
      setActive(i, false);
      highlightPeers(i);
      // Select the digit so a screen reader announces it and typing replaces it.
      e.target.select();
    });

    table.addEventListener("focusout", function (e) {
      if (table.contains(e.relatedTarget)) return;
      inputs.forEach(function (input) {
        input.parentElement.classList.remove("peer", "same-digit");
      });
    });

    table.addEventListener("keydown", function (e) {
      var i = inputs.indexOf(e.target);
      if (i < 0 || e.ctrlKey || e.metaKey || e.altKey) return;
      var r = Math.floor(i / 9), c = i % 9;
      var k = e.key;
      if (k === "Backspace") {
        if (value(i) || i === 0) {
          set(i, 0);
        } else {
          move(i - 1);
          set(i - 1, 0);
        }
        changed();
      } else if (k === "Delete") {
        set(i, 0);
        changed();
      } else if (k === "ArrowRight") {
        move(i + 1);
      } else if (k === "ArrowLeft") {
        move(i - 1);
      } else if (k === "ArrowDown") {
        move(r < 8 ? i + 9 : c);
      } else if (k === "ArrowUp") {
        move(r > 0 ? i - 9 : 72 + c);
      } else if (k === "Home") {
        move(r * 9);
      } else if (k === "End") {
        move(r * 9 + 8);
      } else {
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
    table.addEventListener("beforeinput", function (e) {
      var i = inputs.indexOf(e.target);
      if (i < 0 || !e.data || e.inputType.indexOf("insert") !== 0 || e.inputType === "insertFromPaste") return;
      e.preventDefault();
      typed(i, e.data);
    });

    // input catches what beforeinput could not stop (some input methods
    // compose text uncancellably): keep the last digit typed, if any.
    table.addEventListener("input", function (e) {
      var i = inputs.indexOf(e.target);
      if (i < 0) return;
      var m = e.target.value.match(/[1-9](?!.*[1-9])/);
      set(i, m ? +m[0] : 0);
      changed();
      if (m && i < 80) move(i + 1);
    });

    // Pasting a whole puzzle into any cell fills the grid; a shorter run of
    // cells fills from the cell pasted into.
    function pasteText(i, data) {
      var p = parseCells(data);
      if (p.bad !== undefined) {
        say("Not pasted: '" + p.bad + "' at position " + p.pos + " is not a cell (cells are 1-9, with 0 or . for a blank).", true);
      } else if (p.cells.length === 81) {
        fill(p.cells, 0);
        changed();
        var clues = p.cells.filter(Boolean).length;
        if (!table.querySelector("td.conflict")) say("Pasted a whole puzzle: " + clues + " clues.");
      } else if (p.cells.length > 81) {
        say("Not pasted: expected 81 cells, got " + p.cells.length + ".", true);
      } else if (p.cells.length > 0) {
        fill(p.cells, i);
        changed();
        move(Math.min(i + p.cells.length, 80));
        if (!table.querySelector("td.conflict")) say("Pasted " + p.cells.length + (p.cells.length === 1 ? " cell." : " cells."));
      }
    }

    table.addEventListener("paste", function (e) {
      var i = inputs.indexOf(e.target);
      if (i < 0) return;
      e.preventDefault();
      pasteText(i, (e.clipboardData || window.clipboardData).getData("text"));
    });

    // The paste box drives the grid too, once it holds a whole puzzle.
    text.addEventListener("input", function () {
      var p = parseCells(text.value);
      if (p.bad !== undefined) {
        say("'" + p.bad + "' at position " + p.pos + " is not a cell.", true);
      } else if (p.cells.length === 81) {
        fill(p.cells, 0);
        markConflicts();
        if (!table.querySelector("td.conflict")) say("The grid shows the text's puzzle.");
      } else if (p.cells.length === 0) {
        fill(new Array(81).fill(0), 0);
        markConflicts();
        say("");
      } else {
        say("The text has " + p.cells.length + " of 81 cells.", p.cells.length > 81);
      }
    });

    form.querySelectorAll("[data-clear]").forEach(function (a) {
      a.addEventListener("click", function (e) {
        e.preventDefault();
        fill(new Array(81).fill(0), 0);
        text.value = "";
        changed();
        var alert = form.querySelector("#form-error");
        if (alert) alert.remove();
        say("Cleared.");
        move(0);
      });
    });

    form.querySelectorAll("[data-example]").forEach(function (a) {
      a.addEventListener("click", function (e) {
        e.preventDefault();
        var p = parseCells(a.getAttribute("data-example"));
        if (p.bad !== undefined || p.cells.length !== 81) return;
        fill(p.cells, 0);
        changed();
        say("Loaded the " + a.textContent.trim().toLowerCase() + " example. Press Solve & archive to solve it.");
      });
    });
  }

  // Copy buttons copy the text of the field they name; where the clipboard
  // API is unavailable (plain http on another host) they select the text
  // so Ctrl+C works.
  function initCopy() {
    document.querySelectorAll("[data-copy]").forEach(function (button) {
      var field = document.getElementById(button.getAttribute("data-copy"));
      if (!field) return;
      var label = button.textContent;
      button.addEventListener("click", function () {
        var done = function (msg) {
          button.textContent = msg;
          setTimeout(function () { button.textContent = label; }, 2000);
        };
        field.select();
        if (navigator.clipboard && window.isSecureContext) {
          navigator.clipboard.writeText(field.value).then(
            function () { done("Copied"); },
            function () { done("Press Ctrl+C"); }
          );
        } else {
          var ok = false;
          try { ok = document.execCommand("copy"); } catch (err) { ok = false; }
          done(ok ? "Copied" : "Press Ctrl+C");
        }
      });
    });
  }

  // Forms marked data-autosubmit apply a changed filter at once.
  function initAutosubmit() {
    document.querySelectorAll("form[data-autosubmit]").forEach(function (form) {
      form.addEventListener("change", function () {
        if (form.requestSubmit) form.requestSubmit();
        else form.submit();
      });
    });
  }

  function start() {
    document.querySelectorAll("[data-grid-editor]").forEach(initEditor);
    initCopy();
    initAutosubmit();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
