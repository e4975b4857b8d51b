// skald serve: the page's clocks, resign, draw offers, hint, rules panel, stepping through
// the game, the shared link and FEN, sound and theme. Loaded before app.js, whose state
// (`ui`) and helpers (`$`, `api`) it uses when it is called.

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
