// Sudoku Archive: the replay player of the puzzle page (templates/replay.templ).
// It fetches the trace of the search that measured the puzzle and replays it
// over the board: every step is applied to a model of the grid, and only the
// cells a frame changed are written to the page, so the longest traces
// (about 66,000 steps) play at thousands of steps a second. Every step can
// be taken back exactly: a placement backs out by clearing its cell, an undo
// by putting its digit back, with the kind (forced or guess) it had.
// Without this file the section stays hidden and the board shows the solution.
function init() {
  const section = document.getElementById("replay");
  const board = document.getElementById("board");
  if (!section || !board || !window.fetch || !window.requestAnimationFrame) return;

  const givens = board.dataset.givens || "";
  const tds = [];
  board.querySelectorAll("td[data-cell]").forEach((td) => {
    tds[+td.dataset.cell] = td;
  });
  if (givens.length !== 81 || tds.length !== 81) return;

  const ctl = {};
  section.querySelectorAll("[data-replay]").forEach((el) => {
    ctl[el.dataset.replay] = el;
  });
  section.hidden = false;

  const FORCED = 0, GUESS = 1, UNDO = 2;
  const KINDS = { forced: FORCED, guess: GUESS, undo: UNDO };
  const NAMES = ["forced", "guess", "undo"];
  const fmt = new Intl.NumberFormat("en");

  // The trace, as parallel typed arrays, and what one pass over it taught:
  // removed[i] is the kind (1 forced, 2 guess) of the digit undo step i
  // takes back, bt[i] the backtracks after i steps, solvedAt the step after
  // which the grid is first full (0 if never).
  let n = 0, kind, cell, digit, removed, bt, solvedAt = 0, truncated = false;

  // The grid the page shows: value 0-9 and how it got there (0 given or
  // empty, 1 forced, 2 guess). pos steps of the trace are applied.
  let value = new Uint8Array(81), how = new Uint8Array(81);
  let pos = 0, current = -1;
  let dirty = new Uint8Array(81), dirtyList = [];

  let loaded = false, loading = null;
  let playing = false, speed = +ctl.speed.value || 200, acc = 0, last = 0;

  function mark(c) {
    if (!dirty[c]) {
      dirty[c] = 1;
      dirtyList.push(c);
    }
  }

  function load() {
    if (loading) return loading;
    ctl.counter.textContent = "Loading the search…";
    loading = fetch(section.dataset.traceUrl, { headers: { Accept: "application/json" } })
      .then((r) => {
        if (!r.ok) throw new Error("the server answered " + r.status);
        return r.json();
      })
      .then((t) => {
        prepare(t);
        loaded = true;
        for (let c = 0; c < 81; c++) mark(c);
        render();
      })
      .catch((err) => {
        loading = null;
        ctl.counter.textContent = "Could not load the search (" + err.message + "). Try again.";
      });
    return loading;
  }

  // prepare reads the trace and replays it once, checking that it is legal
  // from the givens (a placement into an empty cell, an undo of the digit
  // that is there), and sets the board to the givens.
  function prepare(t) {
    const steps = t.steps || [];
    n = steps.length;
    truncated = !!t.truncated;
    kind = new Uint8Array(n);
    cell = new Uint8Array(n);
    digit = new Uint8Array(n);
    removed = new Uint8Array(n);
    bt = new Int32Array(n + 1);
    let v = new Uint8Array(81), h = new Uint8Array(81), filled = 0, back = 0;
    for (let c = 0; c < 81; c++) {
      const g = givens.charCodeAt(c) - 48;
      if (g >= 1 && g <= 9) {
        v[c] = g;
        filled++;
      }
    }
    value.set(v);
    how.fill(0);
    for (let i = 0; i < n; i++) {
      let s = steps[i], k = KINDS[s.kind], x = s.cell, d = s.digit;
      if (k === undefined || !(x >= 0 && x <= 80) || !(d >= 1 && d <= 9)) throw new Error("bad step " + i);
      kind[i] = k;
      cell[i] = x;
      digit[i] = d;
      if (k === UNDO) {
        if (v[x] !== d) throw new Error("step " + (i + 1) + " undoes a digit that is not there");
        removed[i] = h[x];
        if (h[x] === 2) back++;
        v[x] = 0;
        h[x] = 0;
        filled--;
      } else {
        if (v[x] !== 0) throw new Error("step " + (i + 1) + " fills a cell that is not empty");
        v[x] = d;
        h[x] = k + 1;
        if (++filled === 81 && !solvedAt) solvedAt = i + 1;
      }
      bt[i + 1] = back;
    }
    pos = 0;
    ctl.scrub.max = String(n);
    ctl.solution.disabled = !solvedAt;
  }

  function forward() {
    let i = pos, c = cell[i];
    if (kind[i] === UNDO) {
      value[c] = 0;
      how[c] = 0;
    } else {
      value[c] = digit[i];
      how[c] = kind[i] + 1;
    }
    mark(c);
    pos++;
  }

  function backward() {
    let i = pos - 1, c = cell[i];
    if (kind[i] === UNDO) {
      value[c] = digit[i];
      how[c] = removed[i];
    } else {
      value[c] = 0;
      how[c] = 0;
    }
    mark(c);
    pos--;
  }

  function seek(target) {
    target = Math.max(0, Math.min(n, target | 0));
    while (pos < target) forward();
    while (pos > target) backward();
    render();
  }

  // paint writes one cell: its digit, and classes for how it got there and
  // for the outline of the current step's cell. An undone cell shows the
  // digit it lost, struck through, while it is the current one.
  function paint(c) {
    const td = tds[c];
    let cls = givens.charCodeAt(c) === 46 ? "r-cell" : "given";
    let text = value[c] ? String(value[c]) : "";
    if (how[c] === 1) cls += " r-forced";
    else if (how[c] === 2) cls += " r-guess";
    if (c === current) {
      let k = kind[pos - 1];
      cls += " r-current r-current-" + NAMES[k];
      if (k === UNDO) {
        cls += " r-undone";
        text = String(digit[pos - 1]);
      }
    }
    if (td.className !== cls) td.className = cls;
    if (td.textContent !== text) td.textContent = text;
  }

  function render() {
    const cur = pos > 0 ? cell[pos - 1] : -1;
    if (cur !== current) {
      if (current >= 0) mark(current);
      current = cur;
    }
    if (current >= 0) mark(current); // its step kind may differ
    for (let j = 0; j < dirtyList.length; j++) {
      dirty[dirtyList[j]] = 0;
      paint(dirtyList[j]);
    }
    dirtyList.length = 0;
    let text = "step " + fmt.format(pos) + " of " + fmt.format(n) + " · " +
      fmt.format(bt[pos]) + (bt[pos] === 1 ? " backtrack" : " backtracks") + " so far";
    if (solvedAt && pos >= solvedAt) text += " · grid full at step " + fmt.format(solvedAt);
    if (truncated && pos === n) text += " · the trace stops here; the search went on";
    ctl.counter.textContent = text;
    ctl.scrub.value = String(pos);
    if (!playing) ctl.play.textContent = pos >= n ? "Replay" : "Play";
  }

  function describe() {
    if (pos === 0) return "Start: the givens.";
    let i = pos - 1;
    const where = "row " + (Math.floor(cell[i] / 9) + 1) + ", column " + (cell[i] % 9 + 1);
    const what = kind[i] === UNDO ? "took back " + digit[i] + " from " : (kind[i] === GUESS ? "guessed " : "forced ") + digit[i] + " in ";
    return "Step " + fmt.format(pos) + " of " + fmt.format(n) + ": " + what + where + ". " + ctl.counter.textContent;
  }

  function announce() {
    ctl.status.textContent = describe();
  }

  function frame(ts) {
    if (!playing) return;
    const dt = last ? Math.min(ts - last, 250) : 0;
    last = ts;
    acc += (dt * speed) / 1000;
    let k = Math.floor(acc);
    if (k > 0) {
      acc -= k;
      let target = Math.min(n, pos + k);
      while (pos < target) forward();
      render();
    }
    if (pos >= n) {
      pause();
      return;
    }
    requestAnimationFrame(frame);
  }

  function play() {
    if (!n) return;
    if (pos >= n) seek(0);
    playing = true;
    acc = 1; // the first step shows at once
    last = 0;
    ctl.play.textContent = "Pause";
    ctl.play.setAttribute("aria-pressed", "true");
    section.classList.add("replay-playing");
    requestAnimationFrame(frame);
  }

  function pause() {
    if (!playing) return;
    playing = false;
    ctl.play.textContent = pos >= n ? "Replay" : "Play";
    ctl.play.setAttribute("aria-pressed", "false");
    section.classList.remove("replay-playing");
    announce();
  }

  // whenLoaded runs fn now if the trace is here, else once it has come.
  function whenLoaded(fn) {
    return (e) => {
      if (e) e.preventDefault();
      if (loaded) fn();
      else load().then(() => {
        if (loaded) fn();
      });
    };
  }

  ctl.play.addEventListener("click", whenLoaded(() => {
    if (playing) pause();
    else play();
  }));
  ctl.forward.addEventListener("click", whenLoaded(() => {
    pause();
    seek(pos + 1);
    announce();
  }));
  ctl.back.addEventListener("click", whenLoaded(() => {
    pause();
    seek(pos - 1);
    announce();
  }));
  ctl.solution.addEventListener("click", whenLoaded(() => {
    pause();
    if (solvedAt) seek(solvedAt);
    announce();
  }));
  ctl.speed.addEventListener("change", () => {
    speed = +ctl.speed.value || 200;
  });
  ctl.scrub.addEventListener("input", whenLoaded(() => {
    pause();
    seek(+ctl.scrub.value);
  }));
  ctl.scrub.addEventListener("change", () => {
    if (loaded) announce();
  });
  ctl.scrub.addEventListener("pointerdown", () => {
    if (!loaded) load();
  });
  section.addEventListener("keydown", (e) => {
    const tag = e.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === "ArrowRight") ctl.forward.click();
    else if (e.key === "ArrowLeft") ctl.back.click();
    else return;
    e.preventDefault();
  });
}

init();
