#!/usr/bin/env python3
"""The static build (scripts/build-web) in headless Chromium, served by `python3 -m http.server`
with the engine compiled to WebAssembly in a Web Worker: the page picks the in-browser engine
(no server), plays a whole Brandubh game and a whole Ataxx game against it (easy), every game
at every level (a move and the reply, from either side), a record saved as PGN and loaded, the
live analysis, and the API's example page (a search with progress reports, stop, a move played). Prints the page's
load size and the time to the engine's first move; with --bench DEPTH also skald's bench in the
browser (nodes: the signature; nps).

Usage: static_page.py WEB_DIR SCREENSHOT_DIR [--bench DEPTH]

Run by tests/web_static.rs; exits 0 when every check passed.
"""

import gzip
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from page_features import free_port  # noqa: E402
from serve_page import (  # noqa: E402
    browser,
    every_variant_and_level,
    idle,
    logged_errors,
    new_game,
    screenshot,
    state,
    wait,
    whole_game_vs_engine,
)
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402


PAGE_FILES = [
    "index.html", "app.js", "board.js", "game.js", "tools.js", "analysis.js", "style.css", "local.js", "skald.js", "worker.js",
    "skald_wasm.js", "skald_wasm_bg.wasm",
]


def load_size(web):
    """The bytes of the files the page loads, as served (python's http.server does not
    compress) and gzipped (as most static hosts serve them)."""
    raw = sum((web / f).stat().st_size for f in PAGE_FILES)
    gz = sum(len(gzip.compress((web / f).read_bytes(), 9)) for f in PAGE_FILES)
    return raw, gz


def cold_first_move(url):
    """A fresh browser, its cache off, where the computer moves first (easy): the time from the
    navigation's start until the page is ready (the engine's WebAssembly compiled, the game
    drawn) and until the computer's first move is on the board, ms."""
    d = browser(1280, 900)
    try:
        d.execute_cdp_cmd("Network.enable", {})
        d.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
        d.get(url + "package.json")
        d.execute_script(
            "localStorage.setItem('skald-prefs', JSON.stringify({variant: 'brandubh', mode: 'computer', level: 'easy', side: 'second', tc: ''}));"
        )
        d.get(url)
        ready = wait(d, "the game", lambda d: d.execute_script("return window.skald && window.skald.state && performance.now()"))
        wait(d, "the computer's first move", lambda d: (s := state(d)) and len(s["moves"]) == 1)
        first = d.execute_script("return performance.now()")
        return ready, first
    finally:
        d.quit()


def record_round_trip(d, rng, tmp):
    """A few hot-seat moves, saved as PGN (the browser build writes it) and loaded again."""
    s = new_game(d, "tablut", "hotseat")
    for _ in range(4):
        version = s["version"]
        choices = [(f, t["move"]) for f, ts in sorted(s["targets"].items()) for t in ts]
        _, mv = rng.choice(choices)
        d.execute_script(f"window.__play = '{mv}'")
        frm, to = mv.split("-")
        d.find_element(By.CSS_SELECTOR, f'rect[data-sq="{frm}"]').click()
        d.find_element(By.CSS_SELECTOR, f'rect[data-sq="{to}"]').click()
        s = wait(d, "the move", lambda d: (n := state(d)) and n["version"] > version and n)
    pgn = d.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "window.skald.record('pgn').then(done, (e) => done('ERROR ' + e.message));"
    )
    assert pgn.startswith("[Event") and '[Variant "tablut"]' in pgn, pgn
    path = tmp / "static.pgn"
    path.write_text(pgn)
    played = s["moves"]
    s = new_game(d, "tablut", "hotseat")
    d.find_element(By.ID, "load").send_keys(str(path.resolve()))
    s = wait(d, "the record loaded", lambda d: (n := state(d)) and n["moves"] == played and n)
    print(f"a PGN record saved and loaded in the browser build: {len(played)} moves")


def analysis_in_the_browser(d, rng):
    """The Analysis panel with the in-browser engine: three lines deepening live, the best
    line's arrows; a move starts it again on the new position; off again."""
    s = new_game(d, "copenhagen", "hotseat")
    d.find_element(By.ID, "analyse").click()
    wait(d, "three lines at depth 3", lambda d: (a := d.execute_script("return window.skald.analysis"))
         and len([l for l in a["lines"] if l]) == 3 and a["info"]["depth"] >= 3)
    wait(d, "the best line's arrows", lambda d: d.find_elements(By.CSS_SELECTOR, "[data-arrow]"))
    assert d.find_element(By.ID, "evalbar").is_displayed()
    info = d.find_element(By.ID, "an-info").text
    assert info.startswith("Depth "), info
    version = s["version"]
    frm, t = sorted(s["targets"].items())[0]
    d.find_element(By.CSS_SELECTOR, f'rect[data-sq="{frm}"]').click()
    d.find_element(By.CSS_SELECTOR, f'rect[data-sq="{t[0]["to"]}"]').click()
    s = wait(d, "the move", lambda d: (n := state(d)) and n["version"] > version and n)
    wait(d, "the new position's lines", lambda d: (a := d.execute_script("return window.skald.analysis"))
         and a["lines"] and a["lines"][0] and a["lines"][0]["version"] == s["version"] and a["info"]["depth"] >= 2)
    d.find_element(By.ID, "analyse").click()
    assert not d.find_element(By.ID, "evalbar").is_displayed()
    print(f"analysis in the browser: {info}; again after a move; off")


def example_page(d, url):
    d.get(url.split("#")[0] + "example.html")
    wait(d, "the example's game", lambda d: "to move" in d.find_element(By.ID, "status").text)
    Select(d.find_element(By.ID, "variant")).select_by_value("ataxx")
    d.find_element(By.ID, "new").click()
    wait(d, "the Ataxx game", lambda d: "x to move" in d.find_element(By.ID, "status").text)
    field = d.find_element(By.ID, "movetime")
    field.clear()
    field.send_keys("60000")
    d.find_element(By.ID, "search").click()
    wait(d, "progress reports", lambda d: d.find_element(By.ID, "log").text.count("depth") >= 3)
    d.find_element(By.ID, "stop").click()
    status = wait(d, "the stopped search", lambda d: (t := d.find_element(By.ID, "status").text).startswith("Best move") and t)
    assert "(stopped)" in status, status
    d.find_element(By.ID, "play-best").click()
    wait(d, "o to move", lambda d: "o to move" in d.find_element(By.ID, "status").text)
    print(f"example page: a search with progress, stopped ({status}), its move played")


def main():
    args = sys.argv[1:]
    bench = None
    if "--bench" in args:
        i = args.index("--bench")
        bench = int(args[i + 1])
        del args[i : i + 2]
    web, shot_dir = Path(args[0]), Path(args[1])
    shot_dir.mkdir(parents=True, exist_ok=True)
    rng = random.Random(7)
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(web)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}/"
    time.sleep(0.5)
    d = None
    try:
        raw, gz = load_size(web)
        ready, first = cold_first_move(url)
        print(
            f"load: {raw // 1024} KiB ({gz // 1024} KiB gzipped; the .wasm {(web / 'skald_wasm_bg.wasm').stat().st_size // 1024} KiB); "
            f"cold start, cache off: the page ready {ready:.0f} ms, the computer's first move {first:.0f} ms after the navigation started"
        )
        d = browser(1280, 900)
        d.get(url)
        idle(d)
        assert d.execute_script("return window.skald.local"), "the page did not pick the in-browser engine"
        assert "WebAssembly" in d.find_element(By.ID, "engine-where").text
        logged_errors(d)
        whole_game_vs_engine(d, "brandubh", "first", rng, shot_dir, "web-brandubh.png")
        whole_game_vs_engine(d, "ataxx", "second", rng, shot_dir, "web-ataxx.png")
        every_variant_and_level(d, rng)
        record_round_trip(d, rng, Path(tempfile.mkdtemp(prefix="skald-web-")))
        analysis_in_the_browser(d, rng)
        errors = [e for e in logged_errors(d) if "favicon" not in e.get("message", "")]
        # (The page's first question to a server, api/variants, is a 404 on a static host.)
        errors = [e for e in errors if "api/variants" not in e.get("message", "")]
        assert not errors, f"errors in the page: {errors}"
        if bench:
            r = d.execute_async_script(
                "const done = arguments[arguments.length - 1];"
                f"window.skald.bench({bench}).then(done, (e) => done({{error: e.message}}));"
            )
            print(f"bench in the browser: depth {r.get('depth')} nodes {r.get('nodes')} time_ms {r.get('time_ms')} nps {r.get('nps')}")
        example_page(d, url)
        screenshot(d, shot_dir / "web-example.png")
    finally:
        if d:
            d.quit()
        server.kill()
        server.wait()
    print("static_page: all checks passed")


if __name__ == "__main__":
    main()
