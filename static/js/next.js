// Sudoku Archive: the "Next puzzle" buttons after a solve. They ask
// GET /api/next for a puzzle at the player's level that the player has not
// played (any way of writing it), easier or harder on request, and open
// it. When nothing is left, the server's reason is shown instead.
const URL_NEXT = "/api/next";

// goNext waits for the finished attempt to reach the server (so the level
// counts it), then opens the next puzzle; say shows a message on the board.
export async function goNext(move, recorded, say) {
  try { await recorded; } catch { /* the attempt's own message says it */ }
  const q = move === "easier" ? "?easier=1" : move === "harder" ? "?harder=1" : "";
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
