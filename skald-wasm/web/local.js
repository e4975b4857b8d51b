// The page's engine when there is no server (the static build, scripts/build-web): answers the
// requests app.js would send to `skald serve` (docs/serve.md, "The API") with the WebAssembly
// engine of skald.js in a Web Worker. Same states, same errors (status and message); records
// are PGN only (no .otg); the live analysis runs in the same worker as the computer's moves
// (one thread), so a move or a search ends it.
"use strict";

(function () {
  // The folder of this script (skald.js, the worker and the .wasm are beside it).
  const scriptBase = new URL(".", document.currentScript ? document.currentScript.src : location.href).href;
  const LEVELS = [
    { name: "easy", time_ms: 500 },
    { name: "medium", time_ms: 1000 },
    { name: "hard", time_ms: 2000 },
  ];

  function fail(status, message) {
    const e = new Error(message);
    e.status = status;
    return e;
  }

  function loadScript(src) {
    return new Promise((resolve, reject) => {
      const s = document.createElement("script");
      s.src = src;
      s.onload = resolve;
      s.onerror = () => reject(new Error(`cannot load ${src}`));
      document.head.appendChild(s);
    });
  }

  // A PGN record's first game: its tags and moves (move numbers, comments, results left out).
  function parsePgn(text) {
    const tags = {};
    for (const m of text.matchAll(/\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]/g)) tags[m[1]] = m[2];
    const body = text.replace(/\[[^\]]*\]/g, " ").replace(/\{[^}]*\}/g, " ").replace(/;[^\n]*/g, " ");
    const moves = [];
    for (const tok of body.split(/\s+/)) {
      if (!tok || /^\d+\.+$/.test(tok)) continue;
      if (["1-0", "0-1", "1/2-1/2", "*"].includes(tok)) break;
      moves.push(tok.replace(/^\d+\.+/, ""));
    }
    return { tags, moves };
  }

  class LocalBackend {
    constructor(engine) {
      this.engine = engine;
      this.games = new Map(); // id -> {game, mode, human, level, version, thinking, pos}
      this.nextId = 1;
      this.variantList = null;
      this.analysis = null; // the analysis under way: {stopped}
    }

    entry(id) {
      const e = this.games.get(id);
      if (!e) throw fail(404, `no game ${id}`);
      return e;
    }

    // The state as the server sends it: the position's fields and the game's.
    state(id) {
      const e = this.entry(id);
      const p = e.pos;
      const engineToMove = !p.result && (e.mode === "computer" ? p.to_move !== e.human : false);
      const humanMoved = e.mode !== "computer" || this.humanMoves(e) > 0;
      return {
        ...p,
        id,
        version: e.version,
        mode: e.mode,
        human: e.mode === "computer" ? e.human : null,
        level: e.mode === "computer" ? LEVELS.find((l) => l.name === e.level) : null,
        engine_to_move: engineToMove,
        thinking: e.thinking,
        can_undo: p.moves.length > 0 && humanMoved,
      };
    }

    // The moves the person has played (against the computer).
    humanMoves(e) {
      // The side to move at the set-up: every move (a pass too) changes sides.
      const other = (side) => (side === "first" ? "second" : "first");
      let side = e.pos.moves.length % 2 === 0 ? e.pos.to_move : other(e.pos.to_move);
      let n = 0;
      for (let i = 0; i < e.pos.moves.length; i++) {
        if (side === e.human) n++;
        side = side === "first" ? "second" : "first";
      }
      return n;
    }

    async request(method, path, body = {}) {
      const parts = path.replace(/^\/?api\//, "").split("/");
      if (method === "GET" && path.endsWith("/api/variants")) {
        if (!this.variantList) this.variantList = await this.engine.variants();
        return { variants: this.variantList, levels: LEVELS, analysis_ms: 0, max_games: 64 };
      }
      if (parts[0] !== "games") throw fail(404, "no such endpoint");
      if (parts.length === 1 && method === "POST") return this.create(body || {});
      const id = parts[1];
      const what = parts.slice(2).join("/");
      const e = this.entry(id);
      switch (`${method} ${what}`) {
        case "GET ":
          return this.state(id);
        case "DELETE ":
          this.stopAnalysis();
          this.games.delete(id);
          e.game.free().catch(() => {});
          return null;
        case "POST move":
          this.stopAnalysis();
          return this.play(id, e, body.move);
        case "POST engine-move":
          this.stopAnalysis();
          return this.engineMove(id, e, body || {});
        case "POST undo":
          this.stopAnalysis();
          return this.undo(id, e);
        case "POST load":
          this.stopAnalysis();
          return this.load(id, e, body.record || "");
        case "GET positions":
          return e.game.positions();
        case "POST analysis/stop":
          return { stopped: this.stopAnalysis() };
        default:
          throw fail(404, "no such endpoint in the browser build");
      }
    }

    async create(body) {
      const mode = body.mode || "computer";
      if (!["computer", "hotseat"].includes(mode)) throw fail(400, `unknown mode '${mode}'`);
      const level = body.level || "medium";
      if (!LEVELS.some((l) => l.name === level)) throw fail(400, `unknown level '${level}'`);
      let game;
      try {
        game = await this.engine.newGame({ variant: body.rules ? null : body.variant || "brandubh", rules: body.rules || null, fen: body.fen || null });
      } catch (err) {
        throw fail(400, err.message);
      }
      const pos = await game.state();
      const names = pos.side_names;
      const side = (body.side || "first").toLowerCase();
      const human = side === "second" || side === names.second || side === "defender" ? "second" : "first";
      const id = `local${this.nextId++}`;
      this.games.set(id, { game, mode, human, level, version: 1, thinking: false, pos });
      return this.state(id);
    }

    async play(id, e, move) {
      if (e.pos.result) throw fail(409, "the game is over");
      if (e.thinking) throw fail(409, "the computer is thinking");
      if (e.mode === "computer" && e.pos.to_move !== e.human) throw fail(409, "it is the computer's turn");
      try {
        e.pos = await e.game.play(String(move || ""));
      } catch (err) {
        throw fail(400, err.message);
      }
      e.version++;
      return this.state(id);
    }

    async engineMove(id, e, body) {
      if (e.pos.result) throw fail(409, "the game is over");
      if (e.thinking) throw fail(409, "the computer is already thinking");
      if (e.mode === "computer" && e.pos.to_move === e.human) throw fail(409, "it is your turn, not the computer's");
      const level = LEVELS.find((l) => l.name === (e.mode === "computer" ? e.level : "medium"));
      const time = body.time_ms ? Math.max(1, Math.min(level.time_ms, body.time_ms)) : level.time_ms;
      const version = e.version;
      e.thinking = true;
      let r;
      try {
        r = await e.game.search({ movetime: time, level: level.name, seed: e.pos.moves.length });
      } finally {
        e.thinking = false;
      }
      if (!this.games.has(id)) throw fail(404, `no game ${id}`);
      if (e.version !== version) throw fail(409, "the game changed while the computer was thinking");
      if (!r.move) throw fail(500, "the engine found no move");
      e.pos = await e.game.play(r.move);
      e.version++;
      return { ...this.state(id), engine: { move: r.move, depth: r.depth, nodes: r.nodes, score: r.score } };
    }

    async undo(id, e) {
      if (e.thinking) throw fail(409, "the computer is thinking");
      const st = this.state(id);
      if (!st.can_undo) throw fail(409, "nothing of yours to undo");
      // Against the computer: back to before your last move (its reply too).
      for (;;) {
        const r = await e.game.undo();
        e.pos = r.state;
        if (!r.undone || e.mode !== "computer" || e.pos.to_move === e.human) break;
      }
      e.version++;
      return this.state(id);
    }

    async load(id, e, record) {
      const { tags, moves } = parsePgn(record);
      if (!moves.length && !tags.FEN && !tags.Variant) throw fail(400, "the record does not read as PGN (the browser build reads PGN only)");
      const variant = tags.Variant || e.pos.variant;
      let game;
      try {
        game = await this.engine.newGame({ variant: variant || null, rules: variant ? null : e.pos.rules, fen: tags.FEN || null, moves });
      } catch (err) {
        throw fail(400, `record: ${err.message}`);
      }
      e.game.free().catch(() => {});
      e.game = game;
      e.pos = await game.state();
      e.version++;
      return this.state(id);
    }

    // The PGN of a game (the browser build writes PGN only).
    async record(id, format) {
      const e = this.entry(id);
      if (format !== "pgn") throw fail(400, "the browser build saves PGN only");
      const p = e.pos;
      const result = !p.result ? "*" : p.result.winner === "first" ? "1-0" : p.result.winner === "second" ? "0-1" : "1/2-1/2";
      const tags = [["Event", "skald in the browser"], ["Site", location.host || "local"], ["Variant", p.variant || "opentafl"], ["Result", result]];
      if (p.moves.length === 0 || p.setup_fen) tags.push(["SetUp", "1"], ["FEN", p.setup_fen]);
      const moves = p.moves.map((m, i) => (i % 2 === 0 ? `${i / 2 + 1}. ${m}` : m)).join(" ");
      return `${tags.map(([k, v]) => `[${k} "${v}"]`).join("\n")}\n\n${moves} ${result}\n`;
    }

    // Live analysis of game `id` (the page's Analysis): `multipv` lines at full strength for up
    // to 30 s, each iteration's lines to `onInfo` as the server's `info` events have them;
    // answers the server's `done` event. The worker has one thread: any other search (the
    // computer's move, a hint) or a move ends the analysis first (`stopAnalysis`).
    async analyse(id, multipv, onInfo) {
      const e = this.entry(id);
      this.stopAnalysis();
      const version = e.version;
      const toMove = e.pos.to_move;
      const firstCp = (score) => {
        const v = score.mate !== undefined ? (score.mate > 0 ? 10000 : -10000) : Math.max(-9999, Math.min(9999, score.cp));
        return toMove === "first" ? v : -v;
      };
      const run = { stopped: false };
      this.analysis = run;
      const r = await e.game.search({ movetime: 30000, multipv }, (info) => {
        if (run.stopped) return;
        onInfo({
          ...info,
          version,
          first_cp: firstCp(info.score),
          pv_squares: info.pv.slice(0, 3).map((m) => (m.match(/[a-z][0-9]+/g) || []).slice(0, 2)),
        });
      });
      if (this.analysis === run) this.analysis = null;
      return { version, over: false, best: r.move, depth: r.depth, nodes: r.nodes, score: r.score, first_cp: r.score ? firstCp(r.score) : 0, stopped: !!r.stopped };
    }

    // Ends the analysis under way, if any.
    stopAnalysis() {
      const run = this.analysis;
      if (!run) return false;
      run.stopped = true;
      this.analysis = null;
      return this.engine.stop();
    }

    // The engine's best move (full strength, 1 s) in game `id`, for the hint button.
    async hint(id) {
      this.stopAnalysis();
      const e = this.entry(id);
      const r = await e.game.search({ movetime: 1000 });
      return r.move;
    }
  }

  window.SkaldLocal = {
    async start() {
      const base = scriptBase;
      if (!window.Skald) await loadScript(new URL("skald.js", base).href);
      const engine = await window.Skald.load({ base });
      return new LocalBackend(engine);
    },
  };
})();
