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
