// skald serve: the page's game: the W/D/L tally, starting a game, playing moves, premoves,
// the computer's replies, records. Loaded before app.js, whose state (`ui`) and helpers
// (`$`, `api`) it uses when it is called.

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
