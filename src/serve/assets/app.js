// skald serve: the page. It draws what the server says (board, legal targets, captures, game
// end, analysis) and sends clicks; the rules live in the engine on the server (docs/serve.md).
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

function render(prev) {
  const s = ui.state;
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
  // The picked piece and its targets.
  if (ui.selected) {
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
      ? `skald (${s.level.name}) is thinking…`
      : `${replied}Your move: ${sideLabel(s.to_move)}${mustPass ? ": you have no move and must pass (press Pass)" : ""}`;
  } else {
    const who = sideLabel(s.to_move);
    status.textContent = `${who.charAt(0).toUpperCase()}${who.slice(1)} to move${mustPass ? ": no move, must pass (press Pass)" : ""}`;
  }
  $("material").textContent = materialText(s);
  const list = $("movelist");
  list.replaceChildren();
  let li = null;
  s.moves.forEach((m, i) => {
    if (i % 2 === 0) {
      li = document.createElement("li");
      list.appendChild(li);
      li.textContent = moveText(m);
    } else {
      li.textContent += `  ${moveText(m)}`;
    }
  });
  if (li) {
    li.classList.add("current");
    list.scrollTop = list.scrollHeight;
  }
  $("undo").disabled = !s.can_undo || ui.busy || ui.gone;
  const myTurn = !s.result && !s.engine_to_move && !ui.busy && !ui.gone;
  $("pass").hidden = !(s.pass && myTurn);
  $("save-otg").hidden = s.family !== "tafl";
  renderTally();
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
  ui.state = s;
  ui.gone = false;
  if (!prev || prev.version !== s.version || prev.id !== s.id) ui.selected = null;
  sessionStorage.setItem("skald-game", JSON.stringify({ id: s.id, token: ui.token, flipped: ui.flipped }));
  if (!how.loaded) countResult(prev);
  render(prev && prev.id === s.id ? prev : null);
  renderPanel();
  if (ui.analysing && (!prev || prev.version !== s.version || prev.id !== s.id)) startAnalysis();
  maybeEngineMove();
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
    const next = await api("POST", `/api/games/${s.id}/engine-move`);
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

function onSquare(name) {
  const s = ui.state;
  ui.cursor = name;
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

async function newGame() {
  const v = $("variant").value;
  const body = { mode: $("mode").value };
  if (v === "rules") body.rules = $("rules").value;
  else body.variant = v;
  if (body.mode === "computer") {
    body.level = $("level").value;
    body.side = $("side").value;
  }
  localStorage.setItem("skald-prefs", JSON.stringify({
    variant: v, rules: $("rules").value, mode: body.mode, level: $("level").value, side: $("side").value,
  }));
  try {
    const s = await api("POST", "/api/games", body);
    // The game this one replaces goes: its searches (the engine's move, an analysis) stop.
    const old = ui.state;
    if (old && old.id !== s.id && !ui.gone) api("DELETE", `/api/games/${old.id}`).catch(() => {});
    ui.token = newToken();
    // The person's side at the bottom (the first side's is unless flipped).
    ui.flipped = s.mode === "computer" && s.human === "second";
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
    const disposition = res.headers.get("Content-Disposition") || "";
    const m = disposition.match(/filename="([^"]+)"/);
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
    a.download = m ? m[1] : `skald.${format}`;
    document.body.appendChild(a);
    a.click();
    setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
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
  else if (info.state === "waiting") text = "Waiting for a free engine…";
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

async function init() {
  const data = await api("GET", "/api/variants");
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
  board.addEventListener("click", (ev) => {
    const sq = ev.target.closest("[data-sq]");
    if (sq) onSquare(sq.getAttribute("data-sq"));
  });
  board.addEventListener("keydown", onBoardKey);
  board.addEventListener("focusin", (ev) => {
    const sq = ev.target.closest && ev.target.closest("[data-sq]");
    if (sq) ui.cursor = sq.getAttribute("data-sq");
    updateCursor();
  });
  board.addEventListener("focusout", () => setTimeout(updateCursor, 0));

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
};

init().catch(showError);
