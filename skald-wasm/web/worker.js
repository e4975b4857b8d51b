// skald's Web Worker: the WebAssembly engine (skald_wasm.js and skald_wasm_bg.wasm, written
// by wasm-bindgen --target no-modules beside this file). One message in, one answer out, by
// request id; a search also sends its progress reports. skald.js is the API that talks to it.
/* global wasm_bindgen, importScripts */
"use strict";

importScripts("skald_wasm.js");
const ready = wasm_bindgen({ module_or_path: new URL("skald_wasm_bg.wasm", self.location.href) });
const games = new Map(); // the caller's game id -> wasm_bindgen.Game

function game(id) {
  const g = games.get(id);
  if (!g) throw new Error(`no game ${id}`);
  return g;
}

self.onmessage = async (ev) => {
  const { id, op, args } = ev.data;
  try {
    await ready;
    let result;
    switch (op) {
      case "variants":
        result = JSON.parse(wasm_bindgen.variants());
        break;
      case "create": {
        // {game, spec: {variant | rules, fen}, moves: [...]}: a new game, and the moves played in it.
        const g = new wasm_bindgen.Game(JSON.stringify(args.spec || {}));
        try {
          for (const m of args.moves || []) g.play(m);
        } catch (e) {
          g.free();
          throw e;
        }
        const old = games.get(args.game);
        if (old) old.free();
        games.set(args.game, g);
        result = JSON.parse(g.state());
        break;
      }
      case "state":
        result = JSON.parse(game(args.game).state());
        break;
      case "legal":
        result = JSON.parse(game(args.game).legalMoves());
        break;
      case "play": {
        const g = game(args.game);
        g.play(args.move);
        result = JSON.parse(g.state());
        break;
      }
      case "undo": {
        const g = game(args.game);
        const undone = g.undo();
        result = { undone, state: JSON.parse(g.state()) };
        break;
      }
      case "positions":
        result = JSON.parse(game(args.game).positions());
        break;
      case "search": {
        const text = game(args.game).search(JSON.stringify(args.limits || {}), (report) => {
          self.postMessage({ id, progress: JSON.parse(report) });
        });
        result = JSON.parse(text);
        break;
      }
      case "free": {
        const g = games.get(args.game);
        if (g) g.free();
        games.delete(args.game);
        result = true;
        break;
      }
      case "bench":
        result = JSON.parse(wasm_bindgen.bench(args.depth));
        break;
      default:
        throw new Error(`unknown request ${op}`);
    }
    self.postMessage({ id, result });
  } catch (e) {
    self.postMessage({ id, error: String((e && e.message) || e) });
  }
};
