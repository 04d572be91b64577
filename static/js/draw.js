// Sudoku Archive: a step drawn over a board, as templates/drawing.go draws
// it on the server: an SVG the size of the board, 100 units a cell, with
// the candidates of the pattern ringed, a chain's links as lines (strong
// solid, weak dashed, as SudokuWiki and HoDoKu draw them) and the
// eliminations crossed out. The explanation, the hints and the practice
// page share it.

const SVG = "http://www.w3.org/2000/svg";
const CELL = 100, RING = 14, CROSS = 11;

// point is the centre of digit d's pencil mark in cell c.
function point(c, d) {
  const third = CELL / 3;
  return { x: (c % 9) * CELL + ((d - 1) % 3) * third + third / 2, y: Math.floor(c / 9) * CELL + Math.floor((d - 1) / 3) * third + third / 2 };
}

const fix = (x) => x.toFixed(1);

function el(name, attrs) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

// overlayOf returns the overlay of a board table (in its .board-wrap),
// made on first use and kept over the table as it resizes.
export function overlayOf(table) {
  const wrap = table.closest(".board-wrap");
  if (!wrap) return null;
  let svg = wrap.querySelector(":scope > svg.step-overlay");
  if (!svg) {
    svg = el("svg", { class: "step-overlay", viewBox: "0 0 900 900", preserveAspectRatio: "none", "aria-hidden": "true", focusable: "false", "data-testid": "step-overlay" });
    wrap.append(svg);
  }
  const place = () => {
    // Over the cells: from the first cell's top left corner to the last
    // cell's bottom right one (the borders between them are the cells').
    const first = table.querySelector('td[data-cell="0"]'), last = table.querySelector('td[data-cell="80"]');
    if (!first || !last) return;
    const w = wrap.getBoundingClientRect(), a = first.getBoundingClientRect(), z = last.getBoundingClientRect();
    svg.style.left = `${a.left - w.left}px`;
    svg.style.top = `${a.top - w.top}px`;
    svg.style.width = `${z.right - a.left}px`;
    svg.style.height = `${z.bottom - a.top}px`;
  };
  place();
  if (!svg.dataset.placed && typeof ResizeObserver === "function") {
    new ResizeObserver(place).observe(table);
    svg.dataset.placed = "1";
  }
  return svg;
}

// drawStep draws step over svg (null clears it). cands[c] is cell c's
// candidate mask (bit d for digit d): a pattern without links rings the
// step's digits in its cells where they are candidates. With opts.branch
// (the explanation's), a forcing chain that lists its branches is drawn
// branch by branch, each in its own colour: all of them (-1) or the one
// asked for, its assumption and the shared conclusion marked.
export function drawStep(svg, step, cands, opts) {
  if (!svg) return;
  svg.replaceChildren();
  if (!step) return;
  const gl = el("g", { class: "chain-links" }), gn = el("g", { class: "chain-nodes" }), gx = el("g", { class: "chain-struck" });
  const seen = new Set();
  const node = (c, d, cls) => {
    const p = point(c, d);
    if (!seen.has(`${c}-${d}`)) {
      seen.add(`${c}-${d}`);
      gn.append(el("circle", { class: cls || "chain-node", cx: fix(p.x), cy: fix(p.y), r: String(RING), "data-cand": `${c}-${d}` }));
    }
    return p;
  };
  const line = (l, cls, extra) => {
    const a = node(l.from.cell, l.from.digit), b = node(l.to.cell, l.to.digit);
    let [x1, y1, x2, y2] = [a.x, a.y, b.x, b.y];
    const n = Math.hypot(x2 - x1, y2 - y1);
    if (n > 2 * RING) {
      const ux = ((x2 - x1) / n) * RING, uy = ((y2 - y1) / n) * RING;
      x1 += ux; y1 += uy; x2 -= ux; y2 -= uy;
    }
    gl.append(el("line", {
      class: (l.strong ? "chain-link chain-strong" : "chain-link chain-weak") + (cls ? ` ${cls}` : ""),
      x1: fix(x1), y1: fix(y1), x2: fix(x2), y2: fix(y2),
      "data-from": `${l.from.cell}-${l.from.digit}`, "data-to": `${l.to.cell}-${l.to.digit}`, ...extra,
    }));
  };
  const links = Array.isArray(step.links) ? step.links : [];
  const branches = opts && Array.isArray(step.branches) ? step.branches : [];
  if (branches.length) {
    drawBranches(branches, opts.branch, node, line);
  } else {
    for (const l of links) line(l);
  }
  if (!links.length && cands) {
    for (const c of step.cells || []) for (const d of step.digits || []) if (cands[c] & (1 << d)) node(c, d);
  }
  for (const { cell, digit } of step.eliminations || []) {
    const p = point(cell, digit);
    const d = `M${fix(p.x - CROSS)} ${fix(p.y - CROSS)}L${fix(p.x + CROSS)} ${fix(p.y + CROSS)}M${fix(p.x - CROSS)} ${fix(p.y + CROSS)}L${fix(p.x + CROSS)} ${fix(p.y - CROSS)}`;
    gx.append(el("path", { class: "chain-cross", d, "data-cand": `${cell}-${digit}` }));
  }
  svg.append(gl, gn, gx);
}

// BRANCH_COLOURS: how many colours the branches take turns with
// (.branch-0 to .branch-5 in analysis.css).
export const BRANCH_COLOURS = 6;

// drawBranches draws the branches of a forcing chain (which = -1: all of
// them), each in its colour: the shared conclusion first (so its ring is
// the conclusion's), then the branches' assumptions, then their links.
function drawBranches(branches, which, node, line) {
  const c = branches[0].conclusion;
  node(c.cell, c.digit, "chain-node chain-conclusion");
  // The assumptions before any link: a branch's assumption may be a node
  // on another branch (a cell's other candidate, say), and a node keeps
  // the ring it is first drawn with.
  const shown = branches.map((b, k) => [b, k]).filter(([, k]) => which < 0 || which === k);
  for (const [b, k] of shown) node(b.assumption.cell, b.assumption.digit, `chain-node chain-assumption branch-${k % BRANCH_COLOURS}`);
  for (const [b, k] of shown) for (const l of b.links || []) line(l, `branch-${k % BRANCH_COLOURS}`, { "data-branch": String(k + 1) });
}
