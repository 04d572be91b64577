// Sudoku Archive: the setter's page (templates/setter.templ). As the setter
// types into the grid or the text box (app.js keeps the two in step), the
// analysis follows: a moment after the last change the grid is sent to
// POST /api/analyse and the answer fills the analysis. Without this file
// the Analyse button posts the form and the server renders the same.
const URL_ANALYSE = "/api/analyse";
const WAIT_MS = 250;

function init(form) {
  const text = form.querySelector("textarea[name=puzzle]");
  const panel = document.querySelector("[data-analysis]");
  if (!text || !panel) return;
  const status = panel.querySelector("[data-analysis-status]");
  const fields = panel.querySelector("[data-analysis-fields]");
  const field = (name) => panel.querySelector(`[data-field="${name}"]`);
  let timer = 0, sent = text.value, seq = 0;

  const cell = (i) => `r${Math.floor(i / 9) + 1}c${(i % 9) + 1}`;
  // A grade figure as templates/setter.go's gradeFigure writes it: never
  // a bare dash for a unique puzzle.
  function grade(a, g, main) {
    if (a.grade_status === "pending") return main ? "grading… (beyond a request's budget: a few seconds more)" : "grading…";
    if (typeof g !== "number") return a.solutions !== 1 ? "none: only a puzzle with one solution has a grade" : "—";
    return main && a.grade_floor ? `at least ${g.toFixed(1)} (beyond the solver's techniques)` : g.toFixed(1);
  }
  let again = 0, polls = 0; // the next ask for a pending grade
  const solutions = (n) => (n === 0 ? "none" : n === 1 ? "exactly one" : "two or more");
  function minimal(a) {
    if (a.minimal === null || a.minimal === undefined) return "—";
    return a.minimal ? "yes: every given is needed" : `no: ${a.redundant.length} givens could each go`;
  }

  function show(a) {
    const set = (name, value) => { const el = field(name); if (el) el.textContent = value; };
    set("solutions", solutions(a.solutions));
    set("clues", String(a.clues));
    set("minimal", minimal(a));
    set("redundant", a.redundant && a.redundant.length ? a.redundant.map(cell).join(", ") : "none");
    set("symmetry", a.symmetry);
    set("grade", grade(a, a.grade, true));
    set("grade_ep", grade(a, a.grade_ep, false));
    set("grade_ed", grade(a, a.grade_ed, false));
    set("techniques", a.grade_status === "pending" ? "grading…" : a.techniques && a.techniques.length ? a.techniques.join(", ") : "—");
    set("canonical", a.canonical && a.canonical.replace(/\./g, "") ? a.canonical : "—");
    const same = field("same_as");
    if (same) {
      if (Number.isInteger(a.same_as)) {
        const link = document.createElement("a");
        link.href = `/puzzles/${a.same_as}`;
        link.textContent = `as #${a.same_as}`;
        same.replaceChildren(link);
      } else same.textContent = "not yet";
    }
    fields.hidden = false;
    status.textContent = a.solutions === 1 ? "One solution." : a.solutions === 0 ? "No solution." : "More than one solution: no grade.";
    // A grade beyond a request's budget is being graded on the server:
    // ask again for the same grid until it comes (a few minutes at most).
    clearTimeout(again);
    if (a.grade_status === "pending" && polls++ < 120) again = setTimeout(() => { sent = null; analyse(); }, 2000);
    else if (a.grade_status !== "pending") polls = 0;
  }

  // clear empties the analysis and says why: it never shows another
  // grid's figures.
  function clear(why) {
    clearTimeout(again);
    polls = 0;
    for (const el of panel.querySelectorAll("[data-field]")) el.textContent = "—";
    fields.hidden = true;
    status.textContent = why;
  }

  async function analyse() {
    const puzzle = text.value;
    if (puzzle === sent) return;
    sent = puzzle;
    const mine = ++seq;
    if (!puzzle.replace(/[\s|+=-]/g, "")) {
      clear("Type a puzzle to see its analysis.");
      return;
    }
    // Clashing givens (app.js marks them): no analysis of this grid, and
    // none of the last one either.
    const clash = form.querySelector("[aria-invalid=true]");
    if (clash) {
      clear(`No analysis: the grid has clashing givens (marked). ${form.querySelector("[data-grid-status]")?.textContent || ""}`.trim());
      return;
    }
    status.textContent = "Analysing…";
    let res, body = {};
    try {
      res = await fetch(URL_ANALYSE, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ puzzle }),
      });
      body = await res.json();
    } catch {
      if (mine === seq) clear("The analysis is not available right now: press Analyse to try again.");
      return;
    }
    if (mine !== seq) return; // a newer grid is on its way
    if (res.ok) show(body);
    else if (res.status === 503 && polls++ < 120) {
      // Busy (the search gate, often with this very grid's grading):
      // ask again shortly rather than drop the analysis.
      status.textContent = "The server is busy: asking again in a moment…";
      clearTimeout(again);
      again = setTimeout(() => { sent = null; analyse(); }, 2000);
    } else clear(`No analysis: ${body.error || `the server answered ${res.status}`}.`);
  }

  const later = () => { clearTimeout(timer); timer = setTimeout(analyse, WAIT_MS); };
  for (const ev of ["input", "keyup", "paste", "click"]) form.addEventListener(ev, later);
  form.addEventListener("submit", (e) => { e.preventDefault(); sent = null; analyse(); });
  if (text.value && fields.hidden) { sent = null; analyse(); }
}

document.querySelectorAll("[data-setter]").forEach(init);
