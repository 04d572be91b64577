// Sudoku Archive: the puzzle page while its grade is pending. The archive
// grades a puzzle after it is saved (the background graders), usually
// within moments; this script asks the API every two seconds and writes the
// grade into the page when it is there, without reloading (a game in
// progress stays as it is). Without this file the page says "grading…"
// until it is reloaded.
function init() {
  const marker = document.querySelector("[data-grading]");
  const measure = document.querySelector('[data-testid="measure-grade"]');
  if (!marker || !measure || !window.fetch) return;
  const id = marker.dataset.grading;
  const value = measure.querySelector(".measure-value");
  const explain = measure.querySelector(".measure-explain");
  let tries = 0;
  const look = async () => {
    tries++;
    try {
      const res = await fetch("/api/puzzles/" + encodeURIComponent(id), { headers: { Accept: "application/json" } });
      if (res.ok) {
        const p = await res.json();
        if (p.grade_status === "done" && p.grade != null) {
          const g = p.grade.toFixed(1);
          value.textContent = p.grade_floor ? "at least " + g : g;
          explain.textContent = "How hard the puzzle is for a person: the hardest technique a solver that always takes the easiest step needs is " +
            p.technique + ". The whole explanation, step by step, is under Show solution.";
          return;
        }
        if (p.grade_status === "none") {
          value.textContent = "none";
          explain.textContent = "The logical solver found no grade for this puzzle.";
          return;
        }
      }
    } catch (e) {
      // the server is away for a moment: look again later
    }
    if (tries < 150) setTimeout(look, 2000); // five minutes, then a reload will tell
  };
  setTimeout(look, 1000);
}

init();
