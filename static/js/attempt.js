// Sudoku Archive: the play board's attempt, recorded on the server
// (POST /api/attempts, POST /api/attempts/{id}). The first move (or a
// reload of a board in progress) opens the attempt: the server starts its
// clock and gives the browser a player cookie if it has none; a reload or a
// second tab gets the same open attempt back. Hints (with the technique the
// server named), checks and mistakes are counted here and kept with the
// progress in localStorage, and sent with the finish: the solved grid,
// which the server checks, or a give-up. An attempt in practice mode (the
// page's ?practice=) is sent with "practice": true.
const API = "/api/attempts";

const post = (url, body) => fetch(url, {
  method: "POST",
  credentials: "same-origin",
  headers: { "Content-Type": "application/json", Accept: "application/json" },
  body: JSON.stringify(body),
});

// recorder returns the attempt of puzzleId (0: nothing is recorded, as for
// a shared puzzle outside the archive), continuing the counts in saved.
export function recorder(puzzleId, saved, practice) {
  const st = { id: 0, hints: 0, checks: 0, mistakes: 0, techniques: [], recorded: false };
  if (saved && typeof saved === "object") {
    for (const k of ["id", "hints", "checks", "mistakes"]) if (Number.isInteger(saved[k]) && saved[k] >= 0) st[k] = saved[k];
    if (Array.isArray(saved.techniques)) st.techniques = saved.techniques.filter((t) => typeof t === "string").slice(0, 1000);
    st.recorded = saved.recorded === true;
  }
  let opening = null;

  // start opens the attempt once; it answers the attempt's id, or 0 when
  // the server records nothing (offline, an old server).
  function start() {
    if (!puzzleId) return Promise.resolve(0);
    if (!opening) {
      opening = post(API, { puzzle_id: puzzleId })
        .then((res) => (res.ok ? res.json() : null))
        .then((a) => {
          if (a && a.outcome === "open" && Number.isInteger(a.id)) st.id = a.id;
          return st.id;
        })
        .catch(() => 0);
    }
    return opening;
  }

  // finish sends the outcome; it answers whether the server recorded it
  // (or had recorded it already, from another tab).
  async function finish(outcome, grid, seconds) {
    const id = await start();
    if (!id) return false;
    const body = {
      // Whole seconds as the board shows them (formatTime floors): the
      // time shown at the finish is the time recorded.
      outcome, active_seconds: Math.max(0, Math.floor(seconds)),
      hints: st.hints, checks: st.checks, mistakes: st.mistakes, techniques: st.techniques,
    };
    if (outcome === "solved") body.grid = grid;
    if (practice) body.practice = true; // marked: the players' model counts it less
    let res;
    try { res = await post(`${API}/${id}`, body); } catch { return false; }
    if (res.ok || res.status === 409) {
      if (res.ok) {
        // A counted finish says how it moved the player's rating.
        const a = await res.json().catch(() => null);
        st.rating = a && a.rating_before != null && a.rating_after != null
          ? [a.rating_before, a.rating_after] : null;
      }
      st.recorded = true;
      st.id = 0;
      opening = null;
      return true;
    }
    return false;
  }

  return {
    state: st,
    start,
    finish,
    hint(technique) {
      st.hints++;
      if (technique && st.techniques.length < 1000) st.techniques.push(String(technique).slice(0, 64));
    },
    check() { st.checks++; },
    mistake() { st.mistakes++; },
    // reset begins a fresh count for a new attempt (after a finish).
    reset() {
      Object.assign(st, { id: 0, hints: 0, checks: 0, mistakes: 0, techniques: [], recorded: false });
      opening = null;
    },
  };
}
