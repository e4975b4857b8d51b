#!/usr/bin/env python3
"""Latency of `skald serve`'s page: from the click that plays a move to the engine's reply drawn
on the board, at each level, against the level's time per move plus 100 ms (issue 23). Not a
test (it measures wall-clock time): run it by hand on an idle machine.

Usage: scripts/serve_latency.py [SKALD_BINARY] [MOVES_PER_LEVEL]
  (default target/release/skald, 4 moves a level, Brandubh and Ataxx)

Needs the .venv/ of ./scripts/test (selenium) and Debian's chromium and chromium-driver. Prints
one line per level and game: the median and the largest latency and the allowance.
"""

import random
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "browser"))
import serve_page as page  # noqa: E402  (the browser test's helpers)

from selenium.webdriver.common.by import By  # noqa: E402


def measure(d, variant, level, moves, rng):
    s = page.new_game(d, variant, "computer", level, "first")
    allowance = s["level"]["time_ms"] + 100
    times = []
    while len(times) < moves and not s["result"]:
        choice = page.pick(s, rng)
        if choice is None:
            break
        frm, to, _ = choice
        page.square(d, frm).click()
        n = len(s["moves"])
        # The click's time and the time the reply is on the board, both by the page's clock.
        d.execute_script(
            """
            window.__t = {};
            document.addEventListener('click', () => { window.__t.click = performance.now(); },
                                      { capture: true, once: true });
            const n = arguments[0];
            const poll = () => {
              const s = window.skald.state;
              if (s && (s.moves.length >= n + 2 || s.result) && !window.skald.busy) {
                window.__t.reply = performance.now();
              } else {
                requestAnimationFrame(poll);
              }
            };
            requestAnimationFrame(poll);
            """,
            n,
        )
        page.square(d, to).click()
        t = page.wait(d, "the reply", lambda d: d.execute_script(
            "return window.__t.reply !== undefined && window.__t"))
        times.append(t["reply"] - t["click"])
        s = page.idle(d)
    if times:
        worst = max(times)
        verdict = "ok" if worst <= allowance else "OVER"
        print(f"{variant:9} {level:6}: {len(times)} moves, median {statistics.median(times):6.0f} ms, "
              f"max {worst:6.0f} ms, allowed {allowance} ms: {verdict}")
    return times


def main():
    root = Path(__file__).resolve().parent.parent
    binary = sys.argv[1] if len(sys.argv) > 1 else str(root / "target/release/skald")
    moves = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    proc = subprocess.Popen([binary, "serve", "--port", "0"], stdout=subprocess.PIPE, text=True)
    url = proc.stdout.readline().split("skald serve: ", 1)[1].strip()
    d = page.browser(1100, 820)
    try:
        d.get(url)
        page.idle(d)
        rng = random.Random(1)
        for variant in ("brandubh", "ataxx"):
            for level in ("easy", "medium", "hard"):
                measure(d, variant, level, moves, rng)
        assert d.find_element(By.ID, "board")
    finally:
        d.quit()
        proc.kill()
        proc.wait()


if __name__ == "__main__":
    main()
