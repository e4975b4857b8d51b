// skald serve: the page's board: its geometry, drawing (pieces, targets, arrows, the move
// list and panel's pieces) and drag and drop. Loaded before app.js, whose state (`ui`) and
// helpers (`$`, `api`) it uses when it is called.

// ---------------------------------------------------------------- geometry

function coords(name) {
  const file = name.charCodeAt(0) - 97;
  const rank = parseInt(name.slice(1), 10) - 1;
  return [file, rank];
}
function squareName(file, rank) {
  return String.fromCharCode(97 + file) + (rank + 1);
}
// Top-left corner of a square on the drawing.
function xy(name) {
  const n = ui.state.size;
  const [f, r] = coords(name);
  const col = ui.flipped ? n - 1 - f : f;
  const row = ui.flipped ? r : n - 1 - r;
  return [MARGIN + col * SQ, row * SQ];
}
function centre(name) {
  const [x, y] = xy(name);
  return [x + SQ / 2, y + SQ / 2];
}

// ---------------------------------------------------------------- drawing

function pieceClass(letter, family) {
  if (family === "tafl") return { t: "attacker", T: "defender", K: "king" }[letter];
  return { x: "x", o: "o" }[letter];
}

function drawPiece(parent, name, letter, family, extra = "") {
  const [cx, cy] = centre(name);
  const cls = pieceClass(letter, family);
  if (!cls) return null;
  const g = el("g", { class: `piece-g ${extra}`.trim(), "data-piece": name }, parent);
  el("circle", { cx, cy, r: family === "tafl" ? 34 : 38, class: `piece ${cls}` }, g);
  if (cls === "king") {
    // A small crown.
    el("path", {
      class: "crown",
      d: `M ${cx - 18} ${cy + 10} L ${cx - 18} ${cy - 12} L ${cx - 9} ${cy - 2} L ${cx} ${cy - 16} L ${cx + 9} ${cy - 2} L ${cx + 18} ${cy - 12} L ${cx + 18} ${cy + 10} Z`,
    }, g);
  }
  return g;
}

function pieceWords(letter, s) {
  if (s.family === "tafl") return { t: "attacker", T: "defender", K: "king" }[letter] || "";
  if (letter === "-") return "blocked";
  return letter === "x" ? s.side_names.first : letter === "o" ? s.side_names.second : "";
}

// The state the board shows: the game now, or a position of its past while stepping through
// the moves (no targets then: nothing can be played there).
function shownState() {
  const s = ui.state;
  const p = ui.positions;
  if (ui.view === null || !p || p.id !== s.id || p.version !== s.version || !p.boards[ui.view]) return s;
  const k = ui.view;
  const mv = k > 0 ? s.moves[k - 1] : null;
  return {
    ...s,
    board: p.boards[k],
    last: mv ? { move: mv, squares: moveSquares(mv) } : null,
    targets: {},
    legal: [],
    pass: null,
    captures: [],
  };
}

// The squares a move names: "d1-b1" and "a7a5" two, an Ataxx clone "f2" one, a pass none.
function moveSquares(mv) {
  return (mv.match(/[a-z][0-9]+/g) || []).slice(0, 2);
}

function render(prev) {
  const s = shownState();
  const svg = $("board");
  // Drawing again removes the focused square: the focus goes back to the cursor's square.
  const focused = svg.contains(document.activeElement);
  const n = s.size;
  const w = MARGIN + n * SQ + 10;
  const h = n * SQ + MARGIN;
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  svg.replaceChildren();
  const defs = el("defs", {}, svg);
  for (const [id, color] of [["ah1", "#c53030"], ["ah2", "#2b6cb0"]]) {
    const m = el("marker", { id, viewBox: "0 0 10 10", refX: 5, refY: 5, markerWidth: 3, markerHeight: 3, orient: "auto-start-reverse" }, defs);
    el("path", { d: "M 0 0 L 10 5 L 0 10 z", fill: color }, m);
  }
  const family = s.family;
  const squares = el("g", { id: "squares" }, svg);
  const marks = el("g", { id: "marks" }, svg);
  const hl = el("g", { id: "highlights" }, svg);
  const pieces = el("g", { id: "pieces" }, svg);
  const arrows = el("g", { id: "arrows" }, svg);
  const fx = el("g", { id: "effects" }, svg);
  const dragLayer = el("g", { id: "drag" }, svg);
  const markAt = new Map(s.marks.map((m) => [m.square, m.kind]));
  const turnTargets = ui.selected ? (s.targets[ui.selected] || []) : [];
  if (!ui.cursor || coords(ui.cursor)[0] >= n || coords(ui.cursor)[1] >= n) ui.cursor = squareName(0, 0);
  for (let row = 0; row < n; row++) {
    for (let col = 0; col < n; col++) {
      const file = ui.flipped ? n - 1 - col : col;
      const rank = ui.flipped ? row : n - 1 - row;
      const name = squareName(file, rank);
      const letter = s.board[n - 1 - rank][file];
      const [x, y] = xy(name);
      let cls = `sq ${family}`;
      if (letter === "-") cls += " blocked";
      const words = [name];
      if (markAt.has(name)) words.push(markAt.get(name));
      if (letter) words.push(pieceWords(letter, s));
      const rect = el("rect", {
        x, y, width: SQ, height: SQ, class: cls, "data-sq": name, role: "button",
        tabindex: name === ui.cursor ? 0 : -1, "aria-label": words.join(" "),
      }, squares);
      if (ui.selected === name) rect.setAttribute("aria-pressed", "true");
      if (markAt.has(name)) {
        el("rect", { x: x + 6, y: y + 6, width: SQ - 12, height: SQ - 12, class: "mark" }, marks);
        el("path", { d: `M ${x + 20} ${y + 20} L ${x + 80} ${y + 80} M ${x + 80} ${y + 20} L ${x + 20} ${y + 80}`, class: "mark-x" }, marks);
      }
      if (letter && letter !== "-") drawPiece(pieces, name, letter, family);
    }
  }
  // Coordinates.
  for (let i = 0; i < n; i++) {
    const file = ui.flipped ? n - 1 - i : i;
    const t = el("text", { x: MARGIN + i * SQ + SQ / 2, y: n * SQ + 30, "text-anchor": "middle", class: "coord" }, svg);
    t.textContent = String.fromCharCode(97 + file);
    const rank = ui.flipped ? i : n - 1 - i;
    const r = el("text", { x: MARGIN / 2, y: i * SQ + SQ / 2 + 9, "text-anchor": "middle", class: "coord" }, svg);
    r.textContent = String(rank + 1);
  }
  // The last move.
  if (s.last) {
    for (const sq of s.last.squares) {
      const [x, y] = xy(sq);
      el("rect", { x, y, width: SQ, height: SQ, class: "last" }, hl);
    }
    const to = s.last.squares[s.last.squares.length - 1];
    if (prev && prev.version !== s.version && to) {
      const g = pieces.querySelector(`[data-piece="${to}"]`);
      if (g) g.classList.add("arrived");
    }
  }
  // A premove: its two squares.
  if (ui.premove && ui.view === null) {
    for (const sq of [ui.premove.from, ui.premove.to]) {
      const [x, y] = xy(sq);
      el("rect", { x, y, width: SQ, height: SQ, class: "premove", "data-premove": sq }, hl);
    }
  }
  // The picked piece and its targets.
  if (ui.selected && ui.view === null) {
    const [x, y] = xy(ui.selected);
    el("rect", { x: x + 4, y: y + 4, width: SQ - 8, height: SQ - 8, class: "selected" }, hl);
    for (const t of turnTargets) {
      const [cx, cy] = centre(t.to);
      const jump = t.kind === "jump";
      el("circle", { cx, cy, r: jump ? 20 : 16, class: jump ? "target jump" : "target", "data-target": t.to }, hl);
    }
  }
  // The keyboard's square (shown while the board has the focus).
  el("rect", { id: "cursor", width: SQ - 6, height: SQ - 6, class: "cursor", visibility: "hidden" }, svg);
  if (focused) focusCursor();
  updateCursor();
  // Captured pieces leave the board; turned-over Ataxx stones flip.
  if (prev && prev.version !== s.version && s.captures.length) {
    for (const c of s.captures) {
      const ghost = drawPiece(fx, c.square, c.piece, family, family === "tafl" ? "captured" : "flipping");
      if (ghost) setTimeout(() => ghost.remove(), 700);
    }
  }
  drawArrows(arrows);
  drawHint(arrows);
  // A piece being dragged: faint on its square, a copy under the pointer.
  if (ui.drag && ui.drag.moving) {
    const g = pieces.querySelector(`[data-piece="${ui.drag.from}"]`);
    if (g) g.classList.add("dragging-from");
    const letter = s.board[n - 1 - coords(ui.drag.from)[1]][coords(ui.drag.from)[0]];
    const ghost = drawPiece(dragLayer, ui.drag.from, letter, family, "drag-ghost");
    if (ghost) ghost.setAttribute("id", "drag-ghost");
    moveGhost();
  }
}

// The hint's arrow (green), while the position is the one it was found for.
function drawHint(layer) {
  const h = ui.hint;
  if (!h || !ui.state || h.id !== ui.state.id || h.version !== ui.state.version || ui.view !== null) return;
  if (h.squares.length === 2) {
    const [x1, y1] = centre(h.squares[0]);
    const [x2, y2] = centre(h.squares[1]);
    const len = Math.hypot(x2 - x1, y2 - y1) || 1;
    el("line", {
      x1, y1, x2: x2 - ((x2 - x1) * 22) / len, y2: y2 - ((y2 - y1) * 22) / len,
      "stroke-width": 14, opacity: 0.85, class: "hint-arrow", "data-hint": h.move,
    }, layer);
  } else if (h.squares.length === 1) {
    const [cx, cy] = centre(h.squares[0]);
    el("circle", { cx, cy, r: 40, fill: "none", "stroke-width": 10, class: "hint-arrow", "data-hint": h.move }, layer);
  }
}

function drawArrows(layer) {
  layer.replaceChildren();
  const best = ui.lines[0];
  if (!ui.analysing || !best || best.version !== ui.state.version) return;
  const squares = best.pv_squares.slice(0, 3);
  squares.forEach((sqs, i) => {
    const mover = (i % 2 === 0) === (ui.state.to_move === "first");
    const color = mover ? "#c53030" : "#2b6cb0";
    const marker = mover ? "ah1" : "ah2";
    const opacity = [0.85, 0.55, 0.35][i];
    if (sqs.length === 2) {
      const [x1, y1] = centre(sqs[0]);
      const [x2, y2] = centre(sqs[1]);
      const len = Math.hypot(x2 - x1, y2 - y1) || 1;
      const back = 22; // end before the centre so the head sits on the square
      el("line", {
        x1, y1, x2: x2 - ((x2 - x1) * back) / len, y2: y2 - ((y2 - y1) * back) / len,
        stroke: color, "stroke-width": 14, opacity, "marker-end": `url(#${marker})`,
        class: "arrow", "data-arrow": i,
      }, layer);
    } else if (sqs.length === 1) {
      const [cx, cy] = centre(sqs[0]);
      el("circle", { cx, cy, r: 40, fill: "none", stroke: color, "stroke-width": 10, opacity, class: "arrow", "data-arrow": i }, layer);
    }
  });
}

function sideName(key) {
  return ui.state.side_names[key];
}

// The colour the page draws a side's pieces in (the first side's dark).
const COLOUR = { first: "black", second: "white" };

// A side's name and colour: "x (black)".
function sideLabel(key) {
  return `${sideName(key)} (${COLOUR[key]})`;
}

// What the pieces say: Ataxx's stone count, tafl's captures so far (the set-up position's
// pieces less the board's, as the server counts them).
function materialText(s) {
  const now = s.pieces;
  if (s.family === "ataxx") {
    return `Stones: ${sideLabel("first")} ${now.first} : ${now.second} ${sideLabel("second")}`;
  }
  const lost = (side) => Math.max(0, s.setup_pieces[side] - now[side]);
  return `Pieces captured: ${lost("first")} of the ${sideLabel("first")}, ${lost("second")} of the ${sideLabel("second")}`;
}

function renderPanel() {
  const s = ui.state;
  const status = $("status");
  status.classList.toggle("over", !!s.result || ui.gone);
  // Passing is the only move: the status line says so.
  const mustPass = !!s.pass && s.legal.length === 1 && s.legal[0] === s.pass;
  $("regame").hidden = !ui.gone;
  if (ui.gone) {
    status.textContent = "This game is gone from the server: start a new game.";
  } else if (s.result) {
    let text = `Game over: ${s.result.text}`;
    if (s.mode === "computer") {
      const won = s.result.winner === s.human;
      text += s.result.winner === null ? ". A draw." : won ? ". You win!" : ". skald wins.";
    }
    status.textContent = text;
  } else if (s.mode === "computer") {
    const last = s.last && moveText(s.last.move);
    const replied = s.last && s.to_move === s.human
      ? (last === "pass" ? "skald passed. " : `skald played ${last}. `)
      : "";
    status.textContent = s.engine_to_move || ui.busy
      ? `skald (${s.level.name}) is thinking…${ui.premove ? ` Premove: ${ui.premove.from}-${ui.premove.to}` : ""}`
      : `${replied}Your move: ${sideLabel(s.to_move)}${mustPass ? ": you have no move and must pass (press Pass)" : ""}`;
  } else {
    const who = sideLabel(s.to_move);
    status.textContent = `${who.charAt(0).toUpperCase()}${who.slice(1)} to move${mustPass ? ": no move, must pass (press Pass)" : ""}`;
  }
  if (ui.view !== null && !ui.gone) {
    status.textContent = `Viewing the position after move ${ui.view} of ${s.moves.length} (▶| back to the game). ${status.textContent}`;
  }
  $("material").textContent = materialText(s);
  renderCaptured(s);
  renderMoveList(s);
  $("undo").disabled = !s.can_undo || ui.busy || ui.gone;
  const myTurn = !s.result && !s.engine_to_move && !ui.busy && !ui.gone;
  $("pass").hidden = !(s.pass && myTurn);
  // (The browser build writes PGN only.)
  $("save-otg").hidden = s.family !== "tafl" || !!ui.backend;
  $("hint").disabled = !myTurn || ui.view !== null;
  $("resign").disabled = !!s.result || ui.gone || s.moves.length === 0 && s.mode === "hotseat";
  $("resign").textContent = ui.resignArmed ? "Confirm resign" : "Resign";
  $("draw").disabled = !!s.result || ui.gone || ui.drawOfferedAt === s.moves.length || (s.mode === "computer" && !myTurn);
  if (document.activeElement !== $("fen")) $("fen").value = s.fen;
  const hintText = $("hint-text");
  if (!ui.hint || ui.hint.id !== s.id || ui.hint.version !== s.version) hintText.textContent = "";
  renderClocks();
  renderTally();
}

// The moves as buttons (a click shows the position after that move), two to a numbered line.
function renderMoveList(s) {
  const list = $("movelist");
  list.replaceChildren();
  let li = null;
  s.moves.forEach((m, i) => {
    if (i % 2 === 0) {
      li = document.createElement("li");
      list.appendChild(li);
    }
    const b = document.createElement("button");
    b.type = "button";
    b.className = "mv";
    b.dataset.ply = String(i + 1);
    b.textContent = moveText(m);
    if (ui.view === i + 1) b.classList.add("viewed");
    if (i % 2 === 1) li.appendChild(document.createTextNode(" "));
    li.appendChild(b);
  });
  if (li) {
    li.classList.add("current");
    if (ui.view === null) list.scrollTop = list.scrollHeight;
  }
  const n = s.moves.length;
  const at = ui.view === null ? n : ui.view;
  $("nav-first").disabled = at === 0;
  $("nav-prev").disabled = at === 0;
  $("nav-next").disabled = at >= n;
  $("nav-last").disabled = ui.view === null;
}

// The pieces each side has lost (tafl), drawn small.
function renderCaptured(s) {
  const box = $("captured");
  box.replaceChildren();
  if (s.family !== "tafl") return;
  const count = (letters) => {
    const c = {};
    for (const l of letters) c[l] = (c[l] || 0) + 1;
    return c;
  };
  const now = count(s.board.flat().filter((l) => l));
  const start = count(s.setup_fen.split(" ")[0].replace(/[^tTK]/g, ""));
  for (const letters of [["t"], ["T", "K"]]) {
    const lost = [];
    for (const l of letters) for (let i = 0; i < Math.max(0, (start[l] || 0) - (now[l] || 0)); i++) lost.push(l);
    if (!lost.length) continue;
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("viewBox", `0 0 ${lost.length * 44 + 4} 44`);
    svg.setAttribute("width", lost.length * 18 + 2);
    svg.setAttribute("class", "captured-row");
    lost.forEach((l, i) => {
      el("circle", { cx: 24 + i * 44, cy: 22, r: 17, class: `piece ${pieceClass(l, "tafl")} cap-piece`, "data-captured": l }, svg);
    });
    box.appendChild(svg);
  }
}

// ---------------------------------------------------------------- drag and drop

function squareAt(ev) {
  const e = document.elementFromPoint(ev.clientX, ev.clientY);
  const sq = e && e.closest && e.closest("#board [data-sq]");
  return sq ? sq.getAttribute("data-sq") : null;
}

// Whether a drag may start on `name`: a piece with moves on your turn, or yours for a premove.
function canDrag(name) {
  const s = ui.state;
  if (!s || s.result || ui.busy || ui.gone || ui.view !== null) return false;
  if (s.mode === "computer" && s.to_move !== s.human) return ownPiece(s, name);
  return !s.engine_to_move && !!s.targets[name];
}

function moveGhost() {
  const g = $("drag-ghost");
  const d = ui.drag;
  if (!g || !d || d.px === undefined) return;
  const svg = $("board");
  const pt = svg.createSVGPoint();
  pt.x = d.px;
  pt.y = d.py;
  const p = pt.matrixTransform(svg.getScreenCTM().inverse());
  const [cx, cy] = centre(d.from);
  g.setAttribute("transform", `translate(${p.x - cx} ${p.y - cy})`);
}

function onPointerDown(ev) {
  if (ev.button !== 0) return;
  const sq = squareAt(ev);
  if (!sq) return;
  ui.drag = { from: sq, x: ev.clientX, y: ev.clientY, moving: false, pointer: ev.pointerId };
}

function onPointerMove(ev) {
  const d = ui.drag;
  if (!d || ev.pointerId !== d.pointer) return;
  d.px = ev.clientX;
  d.py = ev.clientY;
  if (!d.moving && Math.hypot(ev.clientX - d.x, ev.clientY - d.y) > 6 && canDrag(d.from)) {
    d.moving = true;
    ui.selected = d.from;
    ui.premove = null;
    render(null);
  }
  if (d.moving) moveGhost();
}

function onPointerUp(ev) {
  const d = ui.drag;
  if (!d || ev.pointerId !== d.pointer) return;
  ui.drag = null;
  const to = squareAt(ev);
  if (!d.moving) {
    // A click (tap): pick the piece, or its target.
    if (to) onSquare(to);
    return;
  }
  if (to && to !== d.from) {
    // Dropped on a square: the move from the dragged piece there (or a premove).
    ui.selected = d.from;
    onSquare(to);
  } else {
    render(null);
  }
}
