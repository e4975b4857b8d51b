// skald serve: the page's live analysis: started and stopped by the Analyse button, read from
// the server's events (docs/serve.md), shown in the analysis panel and the evaluation bar.
// Loaded before app.js, whose state (`ui`) and helpers (`$`, `api`, `drawArrows`) it uses
// when it is called.

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
