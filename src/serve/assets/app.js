// skald serve: the page. It draws what the server says (board, legal targets, captures, game
// end, analysis) and sends clicks; the rules live in the engine on the server (docs/serve.md).
// Without a server (the static build, scripts/build-web) the same page loads local.js, which
// answers the same requests from skald compiled to WebAssembly in a Web Worker (docs/web.md).
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const SQ = 100; // one square, SVG units
const MARGIN = 40; // room for the coordinates (left and bottom)

const $ = (id) => document.getElementById(id);
const el = (name, attrs = {}, parent = null) => {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
};

const ui = {
  variants: [],
  state: null, // the game's state from the server
  selected: null, // the square of the picked piece
  cursor: null, // the keyboard's square
  flipped: false,
  busy: false, // a request that changes the game is under way
  gone: false, // the server no longer has this game (dropped, or the server restarted)
  analysing: false,
  source: null, // the analysis EventSource
  lines: [], // analysis lines by MultiPV index - 1
  anInfo: null,
  token: null, // this page's id for the game (the W/D/L tally counts each game once)
  backend: null, // local.js's engine in the browser when there is no server; null: the server
  view: null, // the ply shown while stepping through the game (null: the game now)
  positions: null, // {id, version, boards} from /positions, for stepping
  drag: null, // a drag under way: {from, x, y, moving}
  premove: null, // a move chosen during the computer's turn: {from, to}
  hint: null, // {id, version, move, squares}
  override: null, // a result the page decided (resign, flag, draw agreed): {id, result}
  clock: null, // {base, inc, left: {first, second} ms, running, since, plies, flagged}
  drawOfferedAt: null, // the ply of the last draw offer (one per move)
  engineScore: null, // the computer's last score, its own view ({cp} or {mate})
  resignArmed: false,
  gameoverShown: null, // the game whose game-over panel was shown
  sounds: { move: 0, capture: 0, end: 0 }, // sounds played (tests)
};

// ---------------------------------------------------------------- server

// What the page says when the server cannot be reached (instead of the browser's "Failed to
// fetch").
const NO_SERVER = "The server does not answer: is skald serve still running? Start it again and reload this page.";

function noServer() {
  const err = new Error(NO_SERVER);
  err.status = 0;
  return err;
}

// A request to the server: its JSON answer, or an Error with the server's message and the
// status (0: no answer). Every request with effects says it sends JSON (the server refuses
// others: pages of other sites cannot send it).
async function api(method, path, body) {
  if (ui.backend) return ui.backend.request(method, path, body);
  const opts = { method, headers: {} };
  if (method !== "GET") {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body === undefined ? {} : body);
  }
  let res, text;
  try {
    res = await fetch(path, opts);
    text = await res.text();
  } catch (e) {
    throw noServer();
  }
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch (e) { data = { error: text }; }
  if (!res.ok) {
    const err = new Error((data && data.error) || `${res.status} ${res.statusText}`);
    err.status = res.status;
    throw err;
  }
  return data;
}

function showError(e) {
  let text = e ? (e.message || String(e)) : "";
  // (Any other failure of the browser to reach the server.)
  if (/failed to fetch|networkerror|load failed/i.test(text)) text = NO_SERVER;
  $("error").textContent = text;
}

// The server no longer has the game (a request answered 404): say so, take the board out of
// play and offer a new game.
function gameGone() {
  ui.gone = true;
  ui.busy = false;
  ui.selected = null;
  stopAnalysis();
  showError(new Error("This game is no longer on the server (dropped to make room, or the server was restarted): start a new game."));
  render(null);
  renderPanel();
}

// A failed request about the game: a 404 means the game is gone; any other error is shown.
function failed(e) {
  if (e && e.status === 404) gameGone();
  else showError(e);
}

// A move as the page shows it: a pass (Ataxx `0000`) as "pass".
function moveText(m) {
  return m === "0000" ? "pass" : m;
}

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
      const jump = family === "ataxx" && t.move.length > 2;
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
// pieces less the board's).
function materialText(s) {
  const count = (letters) => {
    const c = {};
    for (const l of letters) c[l] = (c[l] || 0) + 1;
    return c;
  };
  const now = count(s.board.flat().filter((l) => l));
  if (s.family === "ataxx") {
    return `Stones: ${sideLabel("first")} ${now.x || 0} : ${now.o || 0} ${sideLabel("second")}`;
  }
  const start = count(s.setup_fen.split(" ")[0].replace(/[^tTK]/g, ""));
  const lost = (letters) => letters.reduce((n, l) => n + Math.max(0, (start[l] || 0) - (now[l] || 0)), 0);
  const first = lost(["t"]);
  const second = lost(["T", "K"]);
  return `Pieces captured: ${first} of the ${sideLabel("first")}, ${second} of the ${sideLabel("second")}`;
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

// ---------------------------------------------------------------- the W/D/L tally

function tally() {
  try {
    return JSON.parse(localStorage.getItem("skald-tally")) || { w: 0, d: 0, l: 0, counted: [] };
  } catch (e) {
    return { w: 0, d: 0, l: 0, counted: [] };
  }
}
function renderTally() {
  const t = tally();
  $("tally-text").textContent = `Against the computer: ${t.w} won · ${t.d} drawn · ${t.l} lost`;
}
// Counts the game's result once it ends by a move played here (`prev`: the state before, of
// the same game and not over); a finished record loaded, or a finished game shown again after
// a reload, is no game played.
function countResult(prev) {
  const s = ui.state;
  if (!s.result || s.mode !== "computer" || !ui.token) return;
  if (!prev || prev.id !== s.id || prev.result) return;
  const t = tally();
  if (t.counted.includes(ui.token)) return;
  if (s.result.winner === null) t.d++;
  else if (s.result.winner === s.human) t.w++;
  else t.l++;
  t.counted = [...t.counted, ui.token].slice(-100);
  localStorage.setItem("skald-tally", JSON.stringify(t));
}

// ---------------------------------------------------------------- the game

// Shows a state from the server; `how.loaded`: a record was loaded (its result is no game
// played here).
function setState(s, how = {}) {
  const prev = ui.state;
  applyOverride(s);
  if (s.engine && s.engine.score) ui.engineScore = s.engine.score;
  ui.state = s;
  ui.gone = false;
  const changed = !prev || prev.version !== s.version || prev.id !== s.id;
  if (changed) {
    ui.selected = null;
    ui.view = null;
    ui.resignArmed = false;
  }
  if (!prev || prev.id !== s.id) {
    ui.premove = null;
    ui.drawOfferedAt = null;
    $("draw-offer").hidden = true;
  }
  sessionStorage.setItem("skald-game", JSON.stringify({ id: s.id, token: ui.token, flipped: ui.flipped }));
  if (!how.loaded) countResult(prev);
  clockUpdate(s);
  const sameGame = prev && prev.id === s.id;
  if (sameGame && s.moves.length > prev.moves.length) sound(s.captures.length ? "capture" : "move");
  render(sameGame ? prev : null);
  renderPanel();
  shareUrl(s);
  if (sameGame && !prev.result && s.result && !how.loaded) gameOver();
  else if (!s.result) $("gameover").hidden = true;
  if (ui.analysing && changed) startAnalysis();
  // A premove is played as soon as it is the person's turn, if it is legal then.
  if (ui.premove && !s.result && !s.engine_to_move && s.mode === "computer" && s.to_move === s.human) {
    const pm = ui.premove;
    ui.premove = null;
    const t = (s.targets[pm.from] || []).find((t) => t.to === pm.to);
    if (t) {
      play(t.move);
      return;
    }
    render(null);
    renderPanel();
  }
  maybeEngineMove();
}

// A result the page decided itself (resign, flag, a draw agreed) stays on the game's states.
function applyOverride(s) {
  const o = ui.override;
  if (!o || o.id !== s.id) return;
  s.result = o.result;
  s.legal = [];
  s.targets = {};
  s.pass = null;
  s.engine_to_move = false;
  s.can_undo = false;
}

// Ends the game on the page (resign, flag, a draw agreed): `winner` "first", "second" or null.
function endGame(winner, reason) {
  const prev = ui.state;
  if (!prev || prev.result) return;
  const names = prev.side_names;
  const text = winner === null ? `draw (${reason})` : `${names[winner]} win${prev.family === "ataxx" ? "s" : ""} (${reason})`;
  ui.override = { id: prev.id, result: { winner, reason, text } };
  const s = { ...prev };
  applyOverride(s);
  ui.state = s;
  ui.premove = null;
  ui.selected = null;
  countResult(prev);
  clockUpdate(s);
  stopAnalysis();
  render(null);
  renderPanel();
  gameOver();
}

// The game-over panel: who won and why, with New game, Rematch and Save PGN.
function gameOver() {
  const s = ui.state;
  if (!s.result) return;
  sound("end");
  let title;
  if (s.result.winner === null) title = "Draw";
  else if (s.mode === "computer") title = s.result.winner === s.human ? "You win!" : "skald wins";
  else title = `${sideLabel(s.result.winner)} win${s.family === "ataxx" ? "s" : ""}`;
  $("gameover-title").textContent = title;
  $("gameover-reason").textContent = `${s.result.text.charAt(0).toUpperCase()}${s.result.text.slice(1)}.`;
  $("gameover").hidden = false;
  ui.gameoverShown = s.id;
}

async function refresh() {
  setState(await api("GET", `/api/games/${ui.state.id}`));
}

async function maybeEngineMove() {
  const s = ui.state;
  if (!s.engine_to_move || s.result || ui.busy || ui.gone) return;
  ui.busy = true;
  renderPanel();
  try {
    const next = await api("POST", `/api/games/${s.id}/engine-move`, engineMoveBody(s));
    if (ui.state.id !== s.id) return; // a new game meanwhile
    ui.busy = false;
    showError(null);
    setState(next);
  } catch (e) {
    if (ui.state.id !== s.id) return;
    ui.busy = false;
    if (e.status === 409) {
      await refresh().catch(failed);
    } else {
      failed(e);
      renderPanel();
    }
  }
}

async function play(move) {
  if (ui.busy || ui.gone) return;
  ui.busy = true;
  ui.selected = null;
  const id = ui.state.id;
  try {
    const next = await api("POST", `/api/games/${id}/move`, { move });
    if (ui.state.id !== id) return; // a new game meanwhile
    ui.busy = false;
    showError(null);
    setState(next);
  } catch (e) {
    if (ui.state.id !== id) return;
    ui.busy = false;
    if (e.status === 404) {
      gameGone();
      return;
    }
    showError(e);
    // The state as the server has it (the targets of the move refused); if the game is gone
    // by now, say so.
    await refresh().catch((e2) => { if (e2.status === 404) gameGone(); else renderPanel(); });
  }
}

// The body of an engine-move request: with a clock, the computer thinks at most a 20th of
// its time left plus half its increment (and never more than its level's time).
function engineMoveBody(s) {
  const c = ui.clock;
  if (!c || s.mode !== "computer") return {};
  const side = s.to_move;
  const left = clockLeft(side);
  return { time_ms: Math.max(20, Math.floor(left / 20 + c.inc / 2)) };
}

// Whether `name` holds a piece of the person's during the computer's turn (a premove's start).
function ownPiece(s, name) {
  const [f, r] = coords(name);
  const letter = s.board[s.size - 1 - r][f];
  if (!letter) return false;
  if (s.family === "tafl") return s.human === "first" ? letter === "t" : letter === "T" || letter === "K";
  return letter === (s.human === "first" ? "x" : "o");
}

function onSquare(name) {
  const s = ui.state;
  ui.cursor = name;
  if (ui.view !== null) {
    // Stepping through the game: a click on the board goes back to the game now.
    showPly(null);
    return;
  }
  // The computer's turn: a click chooses a premove (a piece of yours, then its square).
  if (s && !s.result && !ui.gone && s.mode === "computer" && s.to_move !== s.human) {
    if (ui.premove) {
      ui.premove = null;
      ui.selected = null;
    } else if (ui.selected && ui.selected !== name) {
      ui.premove = { from: ui.selected, to: name };
      ui.selected = null;
    } else {
      ui.selected = ownPiece(s, name) && ui.selected !== name ? name : null;
    }
    render(null);
    renderPanel();
    return;
  }
  if (!s || s.result || ui.busy || s.engine_to_move || ui.gone) {
    render(null);
    return;
  }
  if (ui.selected) {
    const t = (s.targets[ui.selected] || []).find((t) => t.to === name);
    if (t) {
      play(t.move);
      return;
    }
  }
  ui.selected = s.targets[name] && ui.selected !== name ? name : null;
  render(null);
}

// Moves the keyboard's square without drawing the board again (the focus stays).
function updateCursor() {
  const svg = $("board");
  const rect = $("cursor");
  if (!rect || !ui.cursor) return;
  for (const r of svg.querySelectorAll('[data-sq][tabindex="0"]')) {
    if (r.getAttribute("data-sq") !== ui.cursor) r.setAttribute("tabindex", "-1");
  }
  const cur = svg.querySelector(`[data-sq="${ui.cursor}"]`);
  if (cur) cur.setAttribute("tabindex", "0");
  const [x, y] = xy(ui.cursor);
  rect.setAttribute("x", x + 3);
  rect.setAttribute("y", y + 3);
  const a = document.activeElement;
  const keyboard = svg.contains(a) && a.matches(":focus-visible");
  rect.setAttribute("visibility", keyboard ? "visible" : "hidden");
}

function focusCursor() {
  const r = $("board").querySelector(`[data-sq="${ui.cursor}"]`);
  if (r && document.activeElement !== r) r.focus({ preventScroll: true });
}

function onBoardKey(ev) {
  if (!ui.state) return;
  const n = ui.state.size;
  let [f, r] = coords(ui.cursor || "a1");
  const d = ui.flipped ? -1 : 1;
  switch (ev.key) {
    case "ArrowUp": r += d; break;
    case "ArrowDown": r -= d; break;
    case "ArrowLeft": f -= d; break;
    case "ArrowRight": f += d; break;
    case "Enter":
    case " ":
      ev.preventDefault();
      onSquare(ui.cursor);
      return;
    case "Escape":
      ui.selected = null;
      render(null);
      return;
    default:
      return;
  }
  ev.preventDefault();
  f = Math.max(0, Math.min(n - 1, f));
  r = Math.max(0, Math.min(n - 1, r));
  ui.cursor = squareName(f, r);
  focusCursor();
  updateCursor();
}

function newToken() {
  return Math.random().toString(36).slice(2) + Date.now().toString(36);
}

// A new game from the controls; `opts.fen`: from this position; `opts.rematch`: the game
// just played again with the sides swapped; `opts.record`: then load this PGN (a shared link).
async function newGame(opts = {}) {
  const old0 = ui.state;
  if (opts.rematch && old0) {
    if (old0.variant) $("variant").value = old0.variant;
    else { $("variant").value = "rules"; $("rules").value = old0.rules; }
    $("mode").value = old0.mode;
    syncControls();
    if (old0.mode === "computer") {
      $("level").value = old0.level.name;
      $("side").value = old0.human === "first" ? "second" : "first";
    }
  }
  const v = $("variant").value;
  const body = { mode: $("mode").value };
  if (v === "rules") body.rules = $("rules").value;
  else body.variant = v;
  if (body.mode === "computer") {
    body.level = $("level").value;
    body.side = $("side").value;
  }
  if (opts.fen) body.fen = opts.fen;
  let tc;
  try {
    tc = parseTimeControl($("tc").value);
  } catch (e) {
    showError(e);
    return;
  }
  localStorage.setItem("skald-prefs", JSON.stringify({
    variant: v, rules: $("rules").value, mode: body.mode, level: $("level").value, side: $("side").value, tc: $("tc").value,
  }));
  try {
    let s = await api("POST", "/api/games", body);
    if (opts.record) s = await api("POST", `/api/games/${s.id}/load`, { record: opts.record });
    ui.clock = tc ? { ...tc, left: { first: tc.base, second: tc.base }, running: null, since: 0, plies: null, flagged: null, log: [] } : null;
    ui.override = null;
    ui.hint = null;
    ui.engineScore = null;
    $("gameover").hidden = true;
    if (opts.rematch && old0 && old0.mode === "hotseat") ui.flipped = !ui.flipped;
    // The game this one replaces goes: its searches (the engine's move, an analysis) stop.
    const old = ui.state;
    if (old && old.id !== s.id && !ui.gone) api("DELETE", `/api/games/${old.id}`).catch(() => {});
    ui.token = newToken();
    // The person's side at the bottom (the first side's is unless flipped).
    if (s.mode === "computer" || !opts.rematch) ui.flipped = s.mode === "computer" && s.human === "second";
    ui.lines = [];
    ui.busy = false; // a request for the old game may still be under way: its answer is dropped
    showError(null);
    setState(s);
  } catch (e) {
    showError(e);
  }
}

function fillSides() {
  const v = $("variant").value;
  const d = ui.variants.find((x) => x.name === v);
  const names = d ? d.side_names : { first: "attackers", second: "defenders" };
  const side = $("side");
  const keep = side.value;
  side.replaceChildren();
  for (const key of ["first", "second"]) {
    const o = document.createElement("option");
    o.value = key;
    o.textContent = `${names[key]} (${COLOUR[key]}${key === "first" ? ", moves first" : ""})`;
    side.appendChild(o);
  }
  if (keep) side.value = keep;
}

// The board's room on the screen: the stylesheet keeps the whole board in the window's height
// below what stands above it (measured here: the header and the controls, which may wrap).
function fitBoard() {
  const top = $("board-wrap").getBoundingClientRect().top + window.scrollY;
  document.documentElement.style.setProperty("--board-top", `${Math.ceil(top)}px`);
}

function syncControls() {
  $("rules-label").hidden = $("variant").value !== "rules";
  const computer = $("mode").value === "computer";
  $("level-label").hidden = !computer;
  $("side-label").hidden = !computer;
  fillSides();
}

async function save(format) {
  try {
    if (ui.backend) {
      const text = withPageResult(await ui.backend.record(ui.state.id, format), format);
      download(text, `skald-${ui.state.variant || "game"}.${format}`);
      showError(null);
      return;
    }
    let res, text;
    try {
      res = await fetch(`/api/games/${ui.state.id}/record?format=${format}`);
      text = await res.text();
    } catch (e) {
      throw noServer();
    }
    if (!res.ok) {
      let msg = text;
      try { msg = JSON.parse(text).error; } catch (e) { /* plain text */ }
      const err = new Error(msg);
      err.status = res.status;
      throw err;
    }
    text = withPageResult(text, format);
    const disposition = res.headers.get("Content-Disposition") || "";
    const m = disposition.match(/filename="([^"]+)"/);
    download(text, m ? m[1] : `skald.${format}`);
    showError(null);
  } catch (e) {
    failed(e);
  }
}

async function loadRecord(file) {
  try {
    const record = await file.text();
    const s = await api("POST", `/api/games/${ui.state.id}/load`, { record });
    ui.token = newToken();
    showError(null);
    setState(s, { loaded: true });
  } catch (e) {
    failed(e);
  }
}

// Offers `text` as a file download named `name`.
function download(text, name) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  a.download = name;
  document.body.appendChild(a);
  a.click();
  setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
}

// A record saved after the page ended the game (resign, flag, a draw agreed): its result and
// why, which the server does not know.
function withPageResult(text, format) {
  const o = ui.override;
  if (format !== "pgn" || !o || !ui.state || o.id !== ui.state.id) return text;
  const mark = o.result.winner === "first" ? "1-0" : o.result.winner === "second" ? "0-1" : "1/2-1/2";
  let out = text.replace(/\[Result "[^"]*"\]/, `[Result "${mark}"]\n[Termination "${o.result.reason}"]`);
  out = out.replace(/\*(\s*)$/, `${mark}$1`);
  return out;
}

// ---------------------------------------------------------------- clocks

// "5+3" (minutes + seconds of increment), "1" (no increment), "none" or empty (no clock).
function parseTimeControl(text) {
  const t = (text || "").trim();
  if (!t || /^(none|no|off|-)$/i.test(t)) return null;
  const m = t.match(/^(\d+(?:\.\d+)?)\s*(?:\+\s*(\d+(?:\.\d+)?))?$/);
  if (!m || parseFloat(m[1]) <= 0) {
    throw new Error(`Clock "${t}": expected minutes+seconds of increment, e.g. 5+3, or none`);
  }
  return { base: parseFloat(m[1]) * 60000, inc: parseFloat(m[2] || "0") * 1000 };
}

function clockLeft(side) {
  const c = ui.clock;
  if (!c) return Infinity;
  let left = c.left[side];
  if (c.running === side) left -= performance.now() - c.since;
  return Math.max(0, left);
}

// A new state: the side that moved pays its time and gets its increment; the side to move's
// clock runs (none once the game is over).
function clockUpdate(s) {
  const c = ui.clock;
  if (!c) return;
  const now = performance.now();
  const plies = s.moves.length;
  if (c.running) {
    const spent = now - c.since;
    c.left[c.running] = Math.max(0, c.left[c.running] - spent);
    if (c.plies !== null && plies > c.plies) {
      c.left[c.running] += c.inc;
      // (Each move's time, for the tests: the clock's arithmetic without the wall clock.)
      c.log.push({ side: c.running, spent, left: c.left[c.running] });
    }
  }
  c.plies = plies;
  c.running = s.result || c.flagged ? null : s.to_move;
  c.since = now;
  renderClocks();
}

function formatClock(ms) {
  const total = Math.max(0, ms);
  const m = Math.floor(total / 60000);
  const sec = (total % 60000) / 1000;
  return total < 10000 ? `${m}:${sec.toFixed(1).padStart(4, "0")}` : `${m}:${String(Math.floor(sec)).padStart(2, "0")}`;
}

function renderClocks() {
  const box = $("clocks");
  const c = ui.clock;
  box.hidden = !c || !ui.state;
  if (!c || !ui.state) return;
  // The side at the bottom of the board is listed last (as the board shows it).
  const bottom = ui.flipped ? "second" : "first";
  for (const div of box.querySelectorAll(".clock")) {
    const side = div.dataset.side;
    div.style.order = side === bottom ? 2 : 1;
    const left = clockLeft(side);
    div.querySelector(".who").textContent = sideLabel(side);
    div.querySelector(".time").textContent = formatClock(left);
    div.classList.toggle("running", c.running === side);
    div.classList.toggle("low", left < 10000);
    div.classList.toggle("flagged", c.flagged === side);
  }
}

function clockTick() {
  const c = ui.clock;
  const s = ui.state;
  if (!c || !s) return;
  if (c.running && !s.result && clockLeft(c.running) <= 0) {
    const side = c.running;
    c.left[side] = 0;
    c.flagged = side;
    c.running = null;
    endGame(side === "first" ? "second" : "first", `${s.side_names[side]} ran out of time`);
  }
  renderClocks();
}

// ---------------------------------------------------------------- resign, draw, hint

function resign() {
  const s = ui.state;
  if (!s || s.result || ui.gone) return;
  if (!ui.resignArmed) {
    ui.resignArmed = true;
    renderPanel();
    return;
  }
  ui.resignArmed = false;
  const loser = s.mode === "computer" ? s.human : s.to_move;
  endGame(loser === "first" ? "second" : "first", `${s.side_names[loser]} resigned`);
}

// A draw offer: a friend on this device answers it; the computer accepts when its last score
// says it is not ahead (it has played a move at least).
function offerDraw() {
  const s = ui.state;
  if (!s || s.result || ui.gone) return;
  ui.drawOfferedAt = s.moves.length;
  if (s.mode === "hotseat") {
    const other = s.to_move === "first" ? "second" : "first";
    $("draw-offer-text").textContent = `${sideLabel(s.to_move)} offer${s.family === "ataxx" ? "s" : ""} a draw: ${sideName(other)}, accept?`;
    $("draw-offer").hidden = false;
    renderPanel();
    return;
  }
  const sc = ui.engineScore;
  const accepts = sc && (sc.mate !== undefined ? sc.mate < 0 : sc.cp <= 0);
  if (accepts) {
    endGame(null, "agreed");
    $("hint-text").textContent = "skald accepts the draw.";
  } else {
    renderPanel();
    $("hint-text").textContent = "skald declines the draw.";
  }
}

function answerDraw(accept) {
  $("draw-offer").hidden = true;
  if (accept) endGame(null, "agreed");
  else renderPanel();
}

// A hint: the engine's best move in the position now, as a green arrow.
async function hint() {
  const s = ui.state;
  if (!s || s.result || ui.gone || s.engine_to_move) return;
  $("hint-text").textContent = "Looking for a hint…";
  try {
    let move = null;
    if (ui.analysing && ui.lines[0] && ui.lines[0].version === s.version) move = ui.lines[0].pv[0];
    else if (ui.backend) move = await ui.backend.hint(s.id);
    else move = await serverHint(s);
    if (ui.state.id !== s.id || ui.state.version !== s.version) return;
    if (!move) {
      $("hint-text").textContent = "No hint found.";
      return;
    }
    ui.hint = { id: s.id, version: s.version, move, squares: moveSquares(move) };
    render(null);
    $("hint-text").textContent = `Hint: ${moveText(move)}`;
  } catch (e) {
    $("hint-text").textContent = "";
    failed(e);
  }
}

// The server's analysis (one line) until depth 8, its end, or 1.5 s: the best move then.
function serverHint(s) {
  return new Promise((resolve) => {
    const src = new EventSource(`/api/games/${s.id}/analysis?multipv=1`);
    let best = null;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      src.close();
      api("POST", `/api/games/${s.id}/analysis/stop`).catch(() => {});
      resolve(best);
    };
    src.addEventListener("info", (ev) => {
      const d = JSON.parse(ev.data);
      if (d.version !== s.version || !d.pv.length) return;
      best = d.pv[0];
      if (d.depth >= 8) finish();
    });
    src.addEventListener("done", finish);
    src.onerror = finish;
    setTimeout(() => { if (best) finish(); }, 1500);
    setTimeout(finish, 10000);
  });
}

// ---------------------------------------------------------------- rules

// The variant's rules page (docs/rules), as the server (or the static folder) has it.
async function showRules() {
  const s = ui.state;
  const dialog = $("rules-dialog");
  const text = $("rules-text");
  if (!s.variant) {
    text.replaceChildren();
    const p = document.createElement("p");
    p.textContent = `A game of an OpenTafl rules string: ${s.rules}`;
    text.appendChild(p);
  } else {
    text.textContent = "Loading…";
    try {
      const res = await fetch(`rules/${s.variant}.md`);
      if (!res.ok) throw new Error(`no rules page for ${s.variant}`);
      text.innerHTML = markdown(await res.text());
    } catch (e) {
      text.textContent = String(e.message || e);
    }
  }
  $("rules-title").textContent = `Rules: ${s.title}`;
  if (!dialog.open) dialog.showModal();
}

// Enough Markdown for the rules pages: headings, paragraphs, lists, tables, code, bold.
function markdown(src) {
  const esc = (t) => t.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const inline = (t) => esc(t)
    .replace(/`([^`]+)`/g, "<code>$1</code>")
    .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>")
    .replace(/\[([^\]]+)\]\(([^)]+)\)/g, "$1");
  const out = [];
  const lines = src.split("\n");
  let para = [];
  let list = null;
  const flush = () => {
    if (para.length) out.push(`<p>${inline(para.join(" "))}</p>`);
    para = [];
    if (list) out.push(`<${list.tag}>${list.items.map((i) => `<li>${inline(i)}</li>`).join("")}</${list.tag}>`);
    list = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith("```")) {
      flush();
      const code = [];
      for (i++; i < lines.length && !lines[i].startsWith("```"); i++) code.push(lines[i]);
      out.push(`<pre>${esc(code.join("\n"))}</pre>`);
    } else if (/^#{1,6} /.test(line)) {
      flush();
      const level = Math.min(6, line.match(/^#+/)[0].length + 1);
      out.push(`<h${level}>${inline(line.replace(/^#+ /, ""))}</h${level}>`);
    } else if (line.startsWith("|")) {
      flush();
      const rows = [];
      for (; i < lines.length && lines[i].startsWith("|"); i++) rows.push(lines[i]);
      i--;
      const cells = (r) => r.replace(/^\|/, "").replace(/\|$/, "").split("|").map((c) => inline(c.trim()));
      const body = rows.filter((r) => !/^\|[\s:|-]+\|$/.test(r));
      out.push(`<table>${body.map((r, k) => `<tr>${cells(r).map((c) => (k === 0 ? `<th>${c}</th>` : `<td>${c}</td>`)).join("")}</tr>`).join("")}</table>`);
    } else if (/^\s*([-*]|\d+\.) /.test(line)) {
      if (para.length) { const l = list; list = null; flush(); list = l; }
      const tag = /^\s*\d+\./.test(line) ? "ol" : "ul";
      if (!list || list.tag !== tag) { flush(); list = { tag, items: [] }; }
      list.items.push(line.replace(/^\s*([-*]|\d+\.) /, ""));
    } else if (!line.trim()) {
      flush();
    } else if (list && /^\s+/.test(line)) {
      list.items[list.items.length - 1] += ` ${line.trim()}`;
    } else {
      if (list) flush();
      para.push(line.trim());
    }
  }
  flush();
  return out.join("\n");
}

// ---------------------------------------------------------------- stepping through the game

// Shows the position after `ply` moves (null: the game now), fetching the game's positions
// when they are not at hand.
async function showPly(ply) {
  const s = ui.state;
  if (!s) return;
  if (ply !== null) ply = Math.max(0, Math.min(s.moves.length, ply));
  if (ply === s.moves.length) ply = null;
  if (ply !== null) {
    const p = ui.positions;
    if (!p || p.id !== s.id || p.version !== s.version) {
      try {
        const data = await api("GET", `/api/games/${s.id}/positions`);
        if (ui.state.id !== s.id || ui.state.version !== s.version) return;
        ui.positions = { id: s.id, version: s.version, boards: data.boards };
      } catch (e) {
        failed(e);
        return;
      }
    }
  }
  ui.view = ply;
  ui.selected = null;
  render(null);
  renderPanel();
}

function stepPly(delta) {
  const s = ui.state;
  const at = ui.view === null ? s.moves.length : ui.view;
  showPly(at + delta);
}

// ---------------------------------------------------------------- the link, FEN

// The game in the address (#v=…&fen=…&moves=…), so that a copied link opens it again.
function shareUrl(s) {
  const params = new URLSearchParams();
  if (s.variant) params.set("v", s.variant);
  else params.set("rules", s.rules);
  params.set("fen", s.setup_fen);
  if (s.moves.length) params.set("moves", s.moves.join(" "));
  history.replaceState(null, "", `#${params.toString()}`);
}

// The game a link names (#v=…&fen=…&moves=…), or null.
function sharedGame() {
  const h = location.hash.replace(/^#/, "");
  if (!h) return null;
  const params = new URLSearchParams(h);
  if (!params.get("fen") && !params.get("moves")) return null;
  return {
    variant: params.get("v"),
    rules: params.get("rules"),
    fen: params.get("fen"),
    moves: (params.get("moves") || "").split(/[\s,]+/).filter((m) => m),
  };
}

// Opens a shared game: its variant and set-up, then its moves as a PGN record.
async function openShared(g) {
  if (g.variant && ui.variants.some((v) => v.name === g.variant)) $("variant").value = g.variant;
  else if (g.rules) { $("variant").value = "rules"; $("rules").value = g.rules; }
  syncControls();
  if (!g.moves.length || !g.variant) {
    await newGame({ fen: g.fen || undefined });
    return;
  }
  const tags = g.fen ? `[SetUp "1"]\n[FEN "${g.fen}"]\n` : "";
  const moves = g.moves.map((m, i) => (i % 2 === 0 ? `${i / 2 + 1}. ${m}` : m)).join(" ");
  await newGame({ record: `[Variant "${g.variant}"]\n${tags}\n${moves} *\n` });
}

async function copyText(text, what) {
  try {
    await navigator.clipboard.writeText(text);
    $("hint-text").textContent = `${what} copied.`;
  } catch (e) {
    $("hint-text").textContent = `${what}: ${text}`;
  }
}

// ---------------------------------------------------------------- sound, theme

function soundOn() {
  return localStorage.getItem("skald-sound") === "on";
}

// A short tone for a move, two for a capture, three for the end of the game (off by default).
function sound(kind) {
  if (!soundOn()) return;
  ui.sounds[kind] = (ui.sounds[kind] || 0) + 1;
  try {
    const ctx = ui.audio || (ui.audio = new (window.AudioContext || window.webkitAudioContext)());
    const tones = { move: [520], capture: [660, 440], end: [523, 659, 784] }[kind] || [440];
    tones.forEach((f, i) => {
      const o = ctx.createOscillator();
      const g = ctx.createGain();
      o.frequency.value = f;
      const t = ctx.currentTime + i * 0.09;
      g.gain.setValueAtTime(0.0001, t);
      g.gain.exponentialRampToValueAtTime(0.2, t + 0.01);
      g.gain.exponentialRampToValueAtTime(0.0001, t + 0.12);
      o.connect(g).connect(ctx.destination);
      o.start(t);
      o.stop(t + 0.13);
    });
  } catch (e) { /* no audio */ }
}

function applyTheme() {
  const choice = localStorage.getItem("skald-theme") || "auto";
  $("theme").value = choice;
  const dark = window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches;
  document.documentElement.dataset.theme = choice === "auto" ? (dark ? "dark" : "light") : choice;
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

// ---------------------------------------------------------------- analysis

// A score (the side to move's view, as the server sends it) from the first side's view, as
// the evaluation bar shows it: "+0.70" (the first side ahead), "-1.20", "#3" (the first side
// mates in 3), "#-3".
function scoreText(score, toMove) {
  if (!score) return "";
  const sign = toMove === "first" ? 1 : -1;
  if (score.mate !== undefined) return `#${sign * score.mate}`;
  const cp = sign * score.cp;
  return (cp >= 0 ? "+" : "") + (cp / 100).toFixed(2);
}

function stopAnalysis() {
  if (ui.source) {
    ui.source.close();
    ui.source = null;
  }
}

function startAnalysis() {
  stopAnalysis();
  const s = ui.state;
  ui.lines = [];
  ui.anInfo = { depth: 0, state: "starting" };
  renderAnalysis();
  if (s.result) {
    ui.anInfo = { depth: 0, state: "over" };
    renderAnalysis();
    return;
  }
  if (ui.backend) {
    startLocalAnalysis(s);
    return;
  }
  const src = new EventSource(`/api/games/${s.id}/analysis?multipv=3`);
  ui.source = src;
  const mine = (d) => ui.source === src && d.version === ui.state.version;
  src.addEventListener("waiting", () => {
    ui.anInfo = { depth: 0, state: "waiting" };
    renderAnalysis();
  });
  src.addEventListener("started", () => {
    ui.anInfo = { depth: 0, state: "searching" };
    renderAnalysis();
  });
  src.addEventListener("info", (ev) => {
    const d = JSON.parse(ev.data);
    if (!mine(d)) return;
    if (d.multipv === 1 && ui.lines[0] && d.depth > ui.lines[0].depth) ui.lines = ui.lines.slice(0, 1);
    ui.lines[d.multipv - 1] = d;
    ui.anInfo = { depth: d.depth, nodes: d.nodes, nps: d.nps, state: "searching" };
    renderAnalysis();
  });
  src.addEventListener("done", (ev) => {
    const d = JSON.parse(ev.data);
    // (Whether it is this page's analysis, asked before `ui.source` is cleared.)
    const current = mine(d);
    src.close();
    if (ui.source === src) ui.source = null;
    if (!current) return;
    ui.anInfo = { ...(ui.anInfo || {}), depth: d.depth || (ui.anInfo && ui.anInfo.depth), state: d.over ? "over" : "done" };
    renderAnalysis();
  });
  src.onerror = () => {
    src.close();
    if (ui.source !== src) return;
    // The stream broke before `done`: the server went away (or dropped the game).
    ui.source = null;
    ui.anInfo = { ...(ui.anInfo || {}), state: "failed" };
    renderAnalysis();
  };
}

// The analysis in the browser build: the engine of local.js (one thread: it waits while the
// computer thinks, and a move ends it).
function startLocalAnalysis(s) {
  if (s.engine_to_move) {
    ui.anInfo = { depth: 0, state: "waiting" };
    renderAnalysis();
    return;
  }
  const run = { close: () => { run.closed = true; ui.backend.stopAnalysis(); } };
  ui.source = run;
  ui.anInfo = { depth: 0, state: "searching" };
  renderAnalysis();
  const mine = (d) => ui.source === run && !run.closed && d.version === ui.state.version;
  ui.backend.analyse(s.id, 3, (d) => {
    if (!mine(d)) return;
    if (d.multipv === 1 && ui.lines[0] && d.depth > ui.lines[0].depth) ui.lines = ui.lines.slice(0, 1);
    ui.lines[d.multipv - 1] = d;
    ui.anInfo = { depth: d.depth, nodes: d.nodes, nps: d.nps, state: "searching" };
    renderAnalysis();
  }).then((d) => {
    if (!mine(d)) return;
    ui.source = null;
    ui.anInfo = { ...(ui.anInfo || {}), depth: d.depth || (ui.anInfo && ui.anInfo.depth), state: "done" };
    renderAnalysis();
  }, () => {
    if (ui.source !== run) return;
    ui.source = null;
    ui.anInfo = { ...(ui.anInfo || {}), state: "failed" };
    renderAnalysis();
  });
}

function renderAnalysis() {
  const on = ui.analysing;
  $("analysis").hidden = !on;
  $("evalbar").hidden = !on;
  $("analyse").setAttribute("aria-pressed", String(on));
  if (!on || !ui.state) {
    drawArrows($("arrows") || el("g"));
    return;
  }
  const s = ui.state;
  const info = ui.anInfo || { depth: 0, state: "starting" };
  const best = ui.lines[0];
  let text;
  if (info.state === "over") text = "The game is over.";
  else if (info.state === "waiting") text = ui.backend ? "Waiting for the computer's move…" : "Waiting for a free engine…";
  else if (info.state === "failed") text = "Analysis stopped: the server does not answer.";
  else if (!best) text = info.state === "done" ? "Analysis done: no line found." : "Analysing…";
  else {
    const kn = info.nps ? ` · ${Math.round(info.nps / 1000)} kN/s` : "";
    text = `Depth ${info.depth}${kn}${info.state === "done" ? " · done" : ""} · ${sideName(s.to_move)} to move`;
  }
  $("an-view").textContent = `Scores for ${sideName("first")}: + ${sideName("first")} ahead, − ${sideName("second")} ahead`;
  $("an-info").textContent = text;
  const list = $("an-lines");
  list.replaceChildren();
  ui.lines.forEach((l) => {
    if (!l) return;
    const li = document.createElement("li");
    const sc = document.createElement("span");
    sc.className = "score";
    sc.textContent = scoreText(l.score, s.to_move);
    li.appendChild(sc);
    li.appendChild(document.createTextNode(l.pv.map(moveText).join(" ")));
    list.appendChild(li);
  });
  // The evaluation bar: the first side's share (attackers, x: the dark fill).
  const bar = $("evalbar");
  const cp = best ? best.first_cp : 0;
  const share = 50 + 50 * Math.tanh(cp / 400);
  bar.classList.toggle("flipped", ui.flipped);
  $("evalfill").style.height = `${share.toFixed(1)}%`;
  const firstScore = best ? scoreText(best.score, s.to_move) : "";
  $("evaltext").textContent = firstScore;
  bar.title = `Evaluation for ${sideName("first")}: ${firstScore || "…"}`;
  drawArrows($("arrows"));
}

function toggleAnalysis() {
  ui.analysing = !ui.analysing;
  if (ui.analysing) {
    startAnalysis();
  } else {
    stopAnalysis();
    if (ui.state) api("POST", `/api/games/${ui.state.id}/analysis/stop`).catch(() => {});
    ui.lines = [];
  }
  renderAnalysis();
}

// ---------------------------------------------------------------- start

// The server, if it answers; else the engine in the browser (local.js and its WebAssembly
// worker, beside this page in the static build).
async function connect() {
  let data = null;
  try {
    const res = await fetch("api/variants");
    if (res.ok && (res.headers.get("Content-Type") || "").includes("json")) data = await res.json();
  } catch (e) { /* no server */ }
  if (data) {
    $("engine-where").textContent = "engine: on the server";
    return data;
  }
  await new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = "local.js";
    script.onload = resolve;
    script.onerror = () => reject(noServer());
    document.head.appendChild(script);
  });
  ui.backend = await window.SkaldLocal.start();
  $("engine-where").textContent = "engine: in this browser (WebAssembly)";
  return ui.backend.request("GET", "/api/variants");
}

async function init() {
  applyTheme();
  const data = await connect();
  ui.variants = data.variants;
  const sel = $("variant");
  for (const v of data.variants) {
    const o = document.createElement("option");
    o.value = v.name;
    o.textContent = v.title;
    sel.appendChild(o);
  }
  const o = document.createElement("option");
  o.value = "rules";
  o.textContent = "OpenTafl rules string…";
  sel.appendChild(o);
  let prefs = {};
  try { prefs = JSON.parse(localStorage.getItem("skald-prefs")) || {}; } catch (e) { prefs = {}; }
  if (prefs.variant) sel.value = prefs.variant;
  if (!sel.value) sel.value = "brandubh";
  if (prefs.rules) $("rules").value = prefs.rules;
  if (prefs.mode) $("mode").value = prefs.mode;
  if (prefs.level) $("level").value = prefs.level;
  if (prefs.tc) $("tc").value = prefs.tc;
  syncControls();
  if (prefs.side) $("side").value = prefs.side;

  sel.addEventListener("change", () => { syncControls(); fitBoard(); });
  $("mode").addEventListener("change", syncControls);
  window.addEventListener("resize", fitBoard);
  fitBoard();
  $("controls").addEventListener("submit", (ev) => { ev.preventDefault(); newGame(); });
  $("undo").addEventListener("click", async () => {
    if (ui.busy || ui.gone) return;
    try { setState(await api("POST", `/api/games/${ui.state.id}/undo`)); showError(null); } catch (e) { failed(e); }
  });
  $("regame").addEventListener("click", () => newGame());
  $("flip").addEventListener("click", () => {
    ui.flipped = !ui.flipped;
    render(null);
    renderAnalysis();
    sessionStorage.setItem("skald-game", JSON.stringify({ id: ui.state.id, token: ui.token, flipped: ui.flipped }));
  });
  $("pass").addEventListener("click", () => { if (ui.state.pass) play(ui.state.pass); });
  $("analyse").addEventListener("click", toggleAnalysis);
  $("save-pgn").addEventListener("click", () => save("pgn"));
  $("save-otg").addEventListener("click", () => save("otg"));
  $("load").addEventListener("change", (ev) => {
    const f = ev.target.files[0];
    if (f) loadRecord(f);
    ev.target.value = "";
  });
  document.querySelector("label.file").addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); $("load").click(); }
  });
  $("reset-tally").addEventListener("click", () => {
    localStorage.removeItem("skald-tally");
    renderTally();
  });
  const board = $("board");
  // Click (tap) or drag: both through pointer events (a drag that does not move is a click).
  board.addEventListener("pointerdown", onPointerDown);
  window.addEventListener("pointermove", onPointerMove);
  window.addEventListener("pointerup", onPointerUp);
  window.addEventListener("pointercancel", () => { ui.drag = null; if (ui.state) render(null); });
  $("hint").addEventListener("click", hint);
  $("resign").addEventListener("click", resign);
  $("draw").addEventListener("click", offerDraw);
  $("draw-accept").addEventListener("click", () => answerDraw(true));
  $("draw-decline").addEventListener("click", () => answerDraw(false));
  $("go-new").addEventListener("click", () => newGame());
  $("go-rematch").addEventListener("click", () => newGame({ rematch: true }));
  $("go-save").addEventListener("click", () => save("pgn"));
  $("go-close").addEventListener("click", () => { $("gameover").hidden = true; });
  $("rules-open").addEventListener("click", showRules);
  $("rules-close").addEventListener("click", () => $("rules-dialog").close());
  $("nav-first").addEventListener("click", () => showPly(0));
  $("nav-prev").addEventListener("click", () => stepPly(-1));
  $("nav-next").addEventListener("click", () => stepPly(1));
  $("nav-last").addEventListener("click", () => showPly(null));
  $("movelist").addEventListener("click", (ev) => {
    const b = ev.target.closest("[data-ply]");
    if (b) showPly(parseInt(b.dataset.ply, 10));
  });
  $("copy-fen").addEventListener("click", () => copyText(ui.state.fen, "FEN"));
  $("copy-link").addEventListener("click", () => copyText(location.href, "Link"));
  $("open-fen").addEventListener("click", () => {
    const fen = $("fen").value.trim();
    if (fen) newGame({ fen });
  });
  $("fen").addEventListener("keydown", (ev) => {
    if (ev.key === "Enter") { ev.preventDefault(); $("open-fen").click(); }
  });
  $("sound").checked = soundOn();
  $("sound").addEventListener("change", () => localStorage.setItem("skald-sound", $("sound").checked ? "on" : "off"));
  $("theme").addEventListener("change", () => { localStorage.setItem("skald-theme", $("theme").value); applyTheme(); });
  if (window.matchMedia) window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", applyTheme);
  // Stepping through the game by keyboard (outside the board and the fields): ← → one move,
  // Home the start, End back to the game.
  document.addEventListener("keydown", (ev) => {
    const t = ev.target;
    if (!ui.state || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    if (t.closest && (t.closest("#board") || t.closest("input, select, textarea, dialog"))) return;
    const step = { ArrowLeft: -1, ArrowRight: 1 }[ev.key];
    if (step) stepPly(step);
    else if (ev.key === "Home") showPly(0);
    else if (ev.key === "End") showPly(null);
    else return;
    ev.preventDefault();
  });
  setInterval(clockTick, 100);
  window.addEventListener("hashchange", () => {
    const g = sharedGame();
    const s = ui.state;
    if (g && s && (g.fen !== s.setup_fen || g.moves.join(" ") !== s.moves.join(" "))) openShared(g).catch(showError);
  });
  board.addEventListener("keydown", onBoardKey);
  board.addEventListener("focusin", (ev) => {
    const sq = ev.target.closest && ev.target.closest("[data-sq]");
    if (sq) ui.cursor = sq.getAttribute("data-sq");
    updateCursor();
  });
  board.addEventListener("focusout", () => setTimeout(updateCursor, 0));

  // A shared link opens its game.
  const shared = sharedGame();
  if (shared) {
    let saved0 = null;
    try { saved0 = JSON.parse(sessionStorage.getItem("skald-game")); } catch (e) { saved0 = null; }
    // (A reload of a tab whose address is its own game's goes on with the game.)
    if (saved0 && saved0.id) {
      try {
        const s = await api("GET", `/api/games/${saved0.id}`);
        if (s.setup_fen === shared.fen && s.moves.join(" ") === shared.moves.join(" ")) {
          ui.token = saved0.token || newToken();
          ui.flipped = !!saved0.flipped;
          setState(s);
          return;
        }
      } catch (e) { /* open the link */ }
    }
    await openShared(shared);
    return;
  }
  // Go on with this tab's game after a reload, if the server still has it.
  let saved = null;
  try { saved = JSON.parse(sessionStorage.getItem("skald-game")); } catch (e) { saved = null; }
  if (saved && saved.id) {
    try {
      const s = await api("GET", `/api/games/${saved.id}`);
      ui.token = saved.token || newToken();
      ui.flipped = !!saved.flipped;
      setState(s);
      return;
    } catch (e) { /* start a new game */ }
  }
  await newGame();
}

window.skald = {
  get state() { return ui.state; },
  get analysis() { return { lines: ui.lines, info: ui.anInfo, on: ui.analysing }; },
  get busy() { return ui.busy; },
  get clock() { return ui.clock; },
  get sounds() { return ui.sounds; },
  get local() { return !!ui.backend; },
  get backend() { return ui.backend; },
  get view() { return ui.view; },
  get premove() { return ui.premove; },
  // The browser build: its engine's bench, and the game's record (tests, measurements).
  bench(depth) { return ui.backend ? ui.backend.engine.bench(depth) : Promise.reject(new Error("no engine in the browser")); },
  record(format) { return ui.backend ? ui.backend.record(ui.state.id, format) : Promise.reject(new Error("no engine in the browser")); },
};

init().catch(showError);
