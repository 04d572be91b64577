// Sudoku Archive: the "Next puzzle" buttons after a solve. They ask
// GET /api/next for a puzzle at the player's level that the player has not
// played (any way of writing it), easier or harder on request, and open
// it. They send the puzzle just played (from=), so Harder and Easier move
// from it and no button opens it again. When nothing is left, the
// server's reason is shown instead.
const URL_NEXT = "/api/next";

// goNext waits for the finished attempt to reach the server (so the level
// counts it), then opens the next puzzle; from is the puzzle just played (0:
// none); say shows a message on the board.
export async function goNext(move, from, recorded, say) {
  try { await recorded; } catch { /* the attempt's own message says it */ }
  const p = new URLSearchParams();
  if (move === "easier" || move === "harder") p.set(move, "1");
  if (from > 0) p.set("from", String(from));
  const q = p.toString() ? "?" + p.toString() : "";
  say("Finding the next puzzle…");
  let res, body;
  try {
    res = await fetch(URL_NEXT + q, { credentials: "same-origin", headers: { Accept: "application/json" } });
    body = await res.json();
  } catch {
    say("The next puzzle could not be fetched: check the connection and try again.");
    return;
  }
  if (res.ok && Number.isInteger(body.id)) {
    window.location.assign(`/puzzles/${body.id}`);
    return;
  }
  say(body && typeof body.error === "string" ? body.error : `The next puzzle could not be found (${res.status}).`);
}
