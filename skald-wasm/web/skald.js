// skald in the browser: the JavaScript API over the WebAssembly engine in a Web Worker
// (worker.js). Every call answers a Promise. docs/web.md has the whole API; example.html uses it.
//
//   const engine = await Skald.load();                 // or Skald.load({ base: "/skald/" })
//   const game = await engine.newGame({ variant: "brandubh" });   // or { fen }, { rules }
//   await game.legalMoves();                            // ["a4-a2", ...]
//   await game.play("d2-c2");                           // the state after the move
//   const r = await game.search({ movetime: 1000 }, (info) => console.log(info.depth, info.pv));
//   game.stop();                                        // ends a search now (r: its best move so far)
//
// The engine is single-threaded; a search blocks its worker, so `stop` ends the worker and
// starts a new one with the same games (their moves played again): the search's promise
// answers the best move of its last progress report.
"use strict";

(function (root) {
  // The folder of this script (the worker and the .wasm are beside it).
  const here = typeof document !== "undefined" && document.currentScript
    ? new URL(".", document.currentScript.src).href
    : "./";

  class SkaldEngine {
    constructor(base) {
      this.base = base;
      this.nextId = 1;
      this.nextGame = 1;
      this.games = new Map(); // game id -> SkaldGame
      this.spawn();
    }

    spawn() {
      this.pending = new Map(); // request id -> {resolve, reject, progress, last}
      this.worker = new Worker(new URL("worker.js", this.base).href);
      this.worker.onmessage = (ev) => {
        const { id, result, error, progress } = ev.data;
        const p = this.pending.get(id);
        if (!p) return;
        if (progress) {
          p.last = progress;
          if (p.progress) p.progress(progress);
          return;
        }
        this.pending.delete(id);
        if (error !== undefined) p.reject(new Error(error));
        else p.resolve(result);
      };
      this.worker.onerror = (ev) => {
        const err = new Error(`skald worker: ${ev.message || "failed to start"}`);
        for (const p of this.pending.values()) p.reject(err);
        this.pending.clear();
      };
    }

    call(op, args = {}, progress = null) {
      return new Promise((resolve, reject) => {
        const id = this.nextId++;
        this.pending.set(id, { resolve, reject, progress, last: null, op, args });
        this.worker.postMessage({ id, op, args });
      });
    }

    /** The variants: [{name, title, family, size, side_names, opentafl_rules}]. */
    async variants() {
      return (await this.call("variants")).variants;
    }

    /**
     * A new game: `{variant}` (brandubh, tablut, tawlbwrdd, copenhagen, copenhagen13,
     * ashton, ataxx), `{rules}` (an OpenTafl rules string), and optionally `fen`. Rejects with
     * the reason (unknown variant, bad FEN or rules).
     */
    async newGame(spec = {}) {
      const id = this.nextGame++;
      const s = { variant: spec.variant || null, rules: spec.rules || null, fen: spec.fen || null };
      if (!s.variant && !s.rules) s.variant = "brandubh";
      const state = await this.call("create", { game: id, spec: s, moves: spec.moves || [] });
      const g = new SkaldGame(this, id, s, state);
      this.games.set(id, g);
      return g;
    }

    /** skald's bench at `depth` (default 7): {depth, nodes, time_ms, nps}. */
    bench(depth = 7) {
      return this.call("bench", { depth });
    }

    /** Ends the search under way, if any (see SkaldGame.search). */
    stop() {
      const searching = [...this.pending.values()].filter((p) => p.op === "search");
      if (!searching.length) return false;
      const old = [...this.pending.values()];
      this.worker.terminate();
      this.spawn();
      // The games again, in a new worker: each from its set-up with its moves.
      for (const g of this.games.values()) {
        this.call("create", { game: g.id, spec: g.spec, moves: g.moves }).catch(() => {});
      }
      for (const p of old) {
        if (p.op === "search") {
          const l = p.last;
          p.resolve({
            move: l && l.pv.length ? l.pv[0] : null,
            ponder: l && l.pv.length > 1 ? l.pv[1] : null,
            score: l ? l.score : null,
            depth: l ? l.depth : 0,
            nodes: l ? l.nodes : 0,
            lines: l ? [{ score: l.score, pv: l.pv }] : [],
            stopped: true,
          });
        } else {
          // Requests queued behind the search: sent again to the new worker.
          this.call(p.op, p.args, p.progress).then(p.resolve, p.reject);
        }
      }
      return true;
    }

    /** Ends the worker and every game. */
    terminate() {
      this.worker.terminate();
      this.games.clear();
    }
  }

  class SkaldGame {
    constructor(engine, id, spec, state) {
      this.engine = engine;
      this.id = id;
      this.spec = spec;
      this.moves = state.moves.slice();
    }

    /** The state: board, marks, side to move, legal moves and targets, moves, result, FEN… */
    state() {
      return this.engine.call("state", { game: this.id });
    }

    /** The legal moves in the game's notation (Ataxx `0000` passes). */
    legalMoves() {
      return this.engine.call("legal", { game: this.id });
    }

    /** Plays `move`; answers the state after it, or rejects with why it is illegal. */
    async play(move) {
      const s = await this.engine.call("play", { game: this.id, move });
      this.moves = s.moves.slice();
      return s;
    }

    /** Takes back the last move: {undone, state}. */
    async undo() {
      const r = await this.engine.call("undo", { game: this.id });
      this.moves = r.state.moves.slice();
      return r;
    }

    /** Every position from the set-up: {boards, fens}. */
    positions() {
      return this.engine.call("positions", { game: this.id });
    }

    /**
     * Searches the position: `limits` {movetime (ms), depth (plies), nodes, level (easy,
     * medium, hard) or skill (0-20), multipv, seed}; without depth, nodes or movetime, depth 12.
     * `onProgress(info)` gets each iteration: {depth, seldepth, multipv, score ({cp} or {mate},
     * the side to move's view), nodes, nps, time_ms, pv}. Answers {move, ponder, score, depth,
     * nodes, lines}; after `stop()`, the last report's move with `stopped: true`.
     */
    search(limits = {}, onProgress = null) {
      return this.engine.call("search", { game: this.id, limits }, onProgress);
    }

    /** Ends this engine's search under way now. */
    stop() {
      return this.engine.stop();
    }

    /** Frees the game in the worker. */
    free() {
      this.engine.games.delete(this.id);
      return this.engine.call("free", { game: this.id });
    }
  }

  const Skald = {
    /** Starts the engine: `opts.base` is the folder of worker.js and the .wasm (default: this script's). */
    async load(opts = {}) {
      const engine = new SkaldEngine(new URL(opts.base || here, root.location ? root.location.href : undefined).href);
      await engine.call("variants"); // the WebAssembly compiled and ready
      return engine;
    },
    SkaldEngine,
    SkaldGame,
  };
  root.Skald = Skald;
  if (typeof module !== "undefined" && module.exports) module.exports = Skald;
})(typeof globalThis !== "undefined" ? globalThis : this);
