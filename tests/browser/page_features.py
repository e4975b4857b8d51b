#!/usr/bin/env python3
"""The page's board features in headless Chromium, served by `skald serve` (or, with
--static, the static build of scripts/build-web with the engine in the browser): the clickable
move list and stepping through the game, drag and drop, premove, resign and the game-over panel
with rematch (colours swapped), a draw offered (hot-seat and against the computer), the rules
panel, the hint, the shareable link (FEN and moves) opened in a new tab and Open FEN, captured
pieces drawn, clocks (a time control, the increment, a flag on time), sound off by default and
remembered, and themes (dark mode) remembered.

Usage: page_features.py SKALD_BINARY SCREENSHOT_DIR            (skald serve)
       page_features.py --static WEB_DIR SCREENSHOT_DIR        (python3 -m http.server)

Run by tests/serve_browser.rs and tests/web_static.rs; exits 0 when every check passed.
"""

import json
import random
import socket
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from serve_page import (  # noqa: E402
    browser,
    idle,
    logged_errors,
    new_game,
    pick,
    screenshot,
    square,
    start_server,
    state,
    wait,
)
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402


def set_clock(d, text):
    field = d.find_element(By.ID, "tc")
    field.clear()
    if text:
        field.send_keys(text)


def play_click(d, s, rng):
    """A random legal move by two clicks (or Pass); waits for the new state."""
    version = s["version"]
    choice = pick(s, rng)
    if choice is None:
        d.find_element(By.ID, "pass").click()
    else:
        frm, to, _ = choice
        square(d, frm).click()
        square(d, to).click()
    wait(d, "the move", lambda d: (n := state(d)) and n["version"] > version)
    return idle(d)


def drag(d, frm, to):
    """Drags the piece on `frm` to `to` with the mouse (by offsets: the board is drawn again
    when the drag starts)."""
    a = square(d, frm).rect
    b = square(d, to).rect
    dx = round(b["x"] + b["width"] / 2 - (a["x"] + a["width"] / 2))
    dy = round(b["y"] + b["height"] / 2 - (a["y"] + a["height"] / 2))
    ActionChains(d).click_and_hold(square(d, frm)).move_by_offset(10, 10).move_by_offset(
        dx - 10, dy - 10
    ).release().perform()


def drawn_pieces(d):
    """The squares with a piece drawn on the board, with their piece's class."""
    return d.execute_script(
        """const out = {};
        for (const g of document.querySelectorAll('#pieces [data-piece]')) {
          out[g.getAttribute('data-piece')] = g.querySelector('circle').getAttribute('class');
        }
        return out;"""
    )


def board_pieces(board):
    """The occupied squares of a state's board (rows top rank first)."""
    n = len(board)
    out = set()
    for i, row in enumerate(board):
        for f, c in enumerate(row):
            if c and c != "-":
                out.add(f"{chr(97 + f)}{n - i}")
    return out


def move_list_and_stepping(d, rng):
    set_clock(d, "")
    s = new_game(d, "brandubh", "hotseat")
    boards = [s["board"]]
    for _ in range(4):
        s = play_click(d, s, rng)
        boards.append(s["board"])
    buttons = d.find_elements(By.CSS_SELECTOR, "#movelist [data-ply]")
    assert [b.text for b in buttons] == s["moves"], ([b.text for b in buttons], s["moves"])
    buttons[0].click()
    wait(d, "the position after move 1", lambda d: d.execute_script("return window.skald.view") == 1)
    assert set(drawn_pieces(d)) == board_pieces(boards[1]), (drawn_pieces(d), boards[1])
    assert "Viewing the position after move 1 of 4" in d.find_element(By.ID, "status").text
    # No move can be picked in the past: no targets.
    assert not d.find_elements(By.CSS_SELECTOR, "circle[data-target]")
    d.find_element(By.ID, "nav-next").click()
    wait(d, "move 2", lambda d: d.execute_script("return window.skald.view") == 2)
    assert set(drawn_pieces(d)) == board_pieces(boards[2])
    d.find_element(By.ID, "nav-first").click()
    wait(d, "the start", lambda d: d.execute_script("return window.skald.view") == 0)
    assert set(drawn_pieces(d)) == board_pieces(boards[0])
    assert not d.find_element(By.ID, "nav-prev").is_enabled()
    d.find_element(By.ID, "nav-last").click()
    wait(d, "the game now", lambda d: d.execute_script("return window.skald.view") is None)
    assert set(drawn_pieces(d)) == board_pieces(boards[4])
    assert "Viewing" not in d.find_element(By.ID, "status").text
    # By keyboard (outside the board): Left one move back, Home the start, End the game now.
    body = d.find_element(By.TAG_NAME, "body")
    d.execute_script("document.activeElement.blur()")
    body.send_keys(Keys.ARROW_LEFT)
    wait(d, "Left: move 3", lambda d: d.execute_script("return window.skald.view") == 3)
    assert set(drawn_pieces(d)) == board_pieces(boards[3])
    body.send_keys(Keys.HOME)
    wait(d, "Home: the start", lambda d: d.execute_script("return window.skald.view") == 0)
    body.send_keys(Keys.ARROW_RIGHT)
    wait(d, "Right: move 1", lambda d: d.execute_script("return window.skald.view") == 1)
    body.send_keys(Keys.END)
    wait(d, "End: the game now", lambda d: d.execute_script("return window.skald.view") is None)
    print("move list: clicked move 1, stepped on, to the start and back to the game; by keyboard too")
    return s


def drag_and_drop(d, rng):
    s = idle(d)
    frm, to, mv = pick(s, rng)
    drag(d, frm, to)
    s = wait(d, "the dragged move", lambda d: (n := state(d)) and len(n["moves"]) == len(s["moves"]) + 1 and n)
    assert s["moves"][-1] == mv, (s["moves"], mv)
    assert not d.find_elements(By.ID, "drag-ghost")
    # A drop on a square the piece cannot reach plays nothing.
    s = idle(d)
    frm, _, _ = pick(s, rng)
    reach = {t["to"] for t in s["targets"][frm]}
    n = s["size"]
    away = next(
        f"{chr(97 + f)}{r}" for f in range(n) for r in range(1, n + 1)
        if f"{chr(97 + f)}{r}" not in reach and f"{chr(97 + f)}{r}" != frm
        and f"{chr(97 + f)}{r}" not in s["targets"]
    )
    drag(d, frm, away)
    time.sleep(0.3)
    assert len(state(d)["moves"]) == len(s["moves"]), "a drop on an unreachable square played"
    print(f"drag and drop: {mv} played by dragging; a drop on {away} played nothing")


HOLD_ENGINE = """
window.__held = [];
window.__hold = true;
const realFetch = window.__realFetch || window.fetch;
window.__realFetch = realFetch;
window.fetch = (url, opts) => {
  if (window.__hold && String(url).includes('engine-move')) {
    return new Promise((resolve) => window.__held.push(() => resolve(realFetch(url, opts))));
  }
  return realFetch(url, opts);
};
// The browser build: its engine's answers, held the same way.
const b = window.skald.backend;
if (b && !b.__realRequest) {
  b.__realRequest = b.request.bind(b);
  b.request = (method, path, body) => {
    if (window.__hold && String(path).includes('engine-move')) {
      return new Promise((resolve, reject) => window.__held.push(() => b.__realRequest(method, path, body).then(resolve, reject)));
    }
    return b.__realRequest(method, path, body);
  };
}
"""

RELEASE_ENGINE = """
window.__hold = false;
for (const go of window.__held.splice(0)) go();
"""


def premove(d, rng):
    """A premove chosen while the computer thinks (its answer held back) is played at once
    when legal after the reply, and dropped when not."""
    set_clock(d, "")
    s = new_game(d, "brandubh", "computer", "easy", "first")
    d.execute_script(HOLD_ENGINE)
    frm, to, mv = pick(s, rng)
    square(d, frm).click()
    square(d, to).click()
    wait(d, "the computer's turn", lambda d: (n := state(d)) and len(n["moves"]) == 1 and n["engine_to_move"])
    # Any of our pieces and another square: the premove.
    mine = [sq for sq in board_pieces(state(d)["board"]) if d.execute_script(f"return ownPiece(window.skald.state, '{sq}')")]
    s = state(d)
    candidates = []
    for sq in sorted(mine):
        f, r = ord(sq[0]) - 97, int(sq[1:])
        for df, dr in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            t = f"{chr(97 + f + df)}{r + dr}"
            if 0 <= f + df < s["size"] and 1 <= r + dr <= s["size"] and t not in board_pieces(s["board"]):
                candidates.append((sq, t))
    pfrom, pto = rng.choice(candidates)
    square(d, pfrom).click()
    square(d, pto).click()
    pm = d.execute_script("return window.skald.premove")
    assert pm == {"from": pfrom, "to": pto}, pm
    assert len(d.find_elements(By.CSS_SELECTOR, "[data-premove]")) == 2
    assert "Premove" in d.find_element(By.ID, "status").text
    d.execute_script(RELEASE_ENGINE + "window.__hold = true;")
    s = wait(d, "the reply", lambda d: (n := state(d)) and len(n["moves"]) >= 2 and n)
    # The premove was played (a third move) or dropped; hold the next reply to look.
    time.sleep(0.5)
    s = state(d)
    played = len(s["moves"]) >= 3
    if played:
        assert s["moves"][2].startswith(f"{pfrom}-{pto}") or s["moves"][2] == f"{pfrom}-{pto}", s["moves"]
    else:
        assert d.execute_script("return window.skald.premove") is None
    d.execute_script(RELEASE_ENGINE)
    idle(d)
    print(f"premove {pfrom}-{pto} during the computer's turn: {'played on its reply' if played else 'dropped (illegal after the reply)'}")


def resign_gameover_rematch(d, shot_dir):
    set_clock(d, "")
    s = new_game(d, "brandubh", "computer", "easy", "first")
    tally = d.find_element(By.ID, "tally-text").text
    d.find_element(By.ID, "resign").click()
    assert d.find_element(By.ID, "resign").text == "Confirm resign"
    assert not state(d)["result"]
    d.find_element(By.ID, "resign").click()
    wait(d, "the game-over panel", lambda d: d.find_element(By.ID, "gameover").is_displayed())
    s = state(d)
    assert s["result"]["winner"] == "second" and "resigned" in s["result"]["reason"], s["result"]
    assert d.find_element(By.ID, "gameover-title").text == "skald wins"
    assert "attackers resigned" in d.find_element(By.ID, "gameover-reason").text
    assert d.find_element(By.ID, "tally-text").text != tally
    assert not d.find_elements(By.CSS_SELECTOR, "circle[data-target]")
    screenshot(d, shot_dir / "serve-gameover.png")
    d.find_element(By.ID, "go-rematch").click()
    s = wait(d, "the rematch", lambda d: (n := state(d)) and n["id"] != s["id"] and n)
    s = idle(d)
    assert s["human"] == "second" and s["variant"] == "brandubh", s
    assert not d.find_element(By.ID, "gameover").is_displayed()
    # The person's side at the bottom: flipped.
    assert float(square(d, "a1").get_attribute("y")) == 0
    print("resign (confirmed): game-over panel 'skald wins'; rematch with the sides swapped")


def draw_offers(d, rng):
    s = new_game(d, "ataxx", "hotseat")
    s = play_click(d, s, rng)
    d.find_element(By.ID, "draw").click()
    assert d.find_element(By.ID, "draw-offer").is_displayed()
    assert "offers a draw" in d.find_element(By.ID, "draw-offer-text").text
    d.find_element(By.ID, "draw-decline").click()
    assert not state(d)["result"] and not d.find_element(By.ID, "draw").is_enabled()
    s = play_click(d, s, rng)
    d.find_element(By.ID, "draw").click()
    d.find_element(By.ID, "draw-accept").click()
    s = state(d)
    assert s["result"]["winner"] is None and s["result"]["text"] == "draw (agreed)", s["result"]
    assert d.find_element(By.ID, "gameover-title").text == "Draw"
    # Against the computer: it answers by its score.
    s = new_game(d, "brandubh", "computer", "easy", "first")
    s = play_click(d, s, rng)
    d.find_element(By.ID, "draw").click()
    answer = wait(d, "the computer's answer", lambda d: d.find_element(By.ID, "hint-text").text)
    assert answer in ("skald accepts the draw.", "skald declines the draw."), answer
    assert bool(state(d)["result"]) == (answer == "skald accepts the draw.")
    print(f"draw offers: hot-seat declined then agreed; the computer: {answer}")


def rules_panel(d):
    new_game(d, "copenhagen", "hotseat")
    d.find_element(By.ID, "rules-open").click()
    wait(d, "the rules", lambda d: "throne" in d.find_element(By.ID, "rules-text").text.lower())
    assert d.find_element(By.ID, "rules-dialog").is_displayed()
    assert "Copenhagen" in d.find_element(By.ID, "rules-title").text
    assert d.find_elements(By.CSS_SELECTOR, "#rules-text h2, #rules-text h3")
    d.find_element(By.ID, "rules-close").click()
    assert not d.find_element(By.ID, "rules-dialog").is_displayed()
    print("rules: the Copenhagen page shown and closed")


def hint(d):
    s = new_game(d, "tablut", "computer", "medium", "first")
    d.find_element(By.ID, "hint").click()
    wait(d, "the hint", lambda d: d.find_elements(By.CSS_SELECTOR, "[data-hint]"))
    mv = d.find_element(By.CSS_SELECTOR, "[data-hint]").get_attribute("data-hint")
    assert mv in s["legal"], (mv, s["legal"][:5])
    assert f"Hint: {mv}" in d.find_element(By.ID, "hint-text").text
    print(f"hint: {mv} (legal), drawn as an arrow")


def shared_link_and_fen(d, rng):
    set_clock(d, "")
    s = new_game(d, "tablut", "hotseat")
    for _ in range(3):
        s = play_click(d, s, rng)
    url = d.current_url
    assert "#" in url and "moves=" in url and "fen=" in url, url
    first = d.current_window_handle
    d.switch_to.new_window("tab")
    d.get(url)
    s2 = wait(d, "the shared game", lambda d: (n := state(d)) and n["moves"] == s["moves"] and n)
    s2 = idle(d)
    assert s2["fen"] == s["fen"] and s2["setup_fen"] == s["setup_fen"] and s2["variant"] == "tablut", (s2, s)
    assert s2["id"] != s["id"]
    d.close()
    d.switch_to.window(first)
    # Copy FEN shows the position's FEN; Open FEN starts a game there.
    fen = d.find_element(By.ID, "fen").get_attribute("value")
    assert fen == s["fen"], (fen, s["fen"])
    d.find_element(By.ID, "copy-fen").click()
    new_game(d, "tablut", "hotseat")
    field = d.find_element(By.ID, "fen")
    field.clear()
    field.send_keys(fen)
    d.find_element(By.ID, "open-fen").click()
    s3 = wait(d, "the game from the FEN", lambda d: (n := state(d)) and n["fen"] == fen and n)
    assert s3["moves"] == [] and s3["setup_fen"] == fen
    field = d.find_element(By.ID, "fen")
    field.clear()
    field.send_keys("not a fen")
    d.find_element(By.ID, "open-fen").click()
    wait(d, "the FEN's error", lambda d: d.find_element(By.ID, "error").text)
    assert state(d)["fen"] == fen
    print(f"shared link: {len(s['moves'])} moves opened in a new tab (same FEN); Open FEN round trip; a bad FEN refused")


def captured_drawn(d, rng):
    """Random hot-seat moves until a capture; the lost pieces are drawn."""
    set_clock(d, "")
    s = new_game(d, "brandubh", "hotseat")
    start = len(board_pieces(s["board"]))
    for _ in range(80):
        s = play_click(d, s, rng)
        if s["result"] or len(board_pieces(s["board"])) < start:
            break
    lost = start - len(board_pieces(s["board"]))
    drawn = len(d.find_elements(By.CSS_SELECTOR, "#captured .cap-piece"))
    assert drawn == lost, (drawn, lost)
    print(f"captured pieces: {lost} drawn after {len(s['moves'])} plies")


def clocks(d, rng):
    set_clock(d, "5+3")
    s = new_game(d, "brandubh", "hotseat")
    clock_text = d.find_element(By.ID, "clocks").text
    assert d.find_element(By.ID, "clocks").is_displayed() and ("5:00" in clock_text or "4:59" in clock_text), clock_text
    s = play_click(d, s, rng)
    c = d.execute_script("return window.skald.clock")
    # The first side moved: its increment (3 s) is added, the time it took taken off (as the
    # page measured it: no assumption on the machine's speed).
    (entry,) = c["log"]
    assert entry["side"] == "first" and entry["spent"] >= 0, c
    assert abs(c["left"]["first"] - (300000 - entry["spent"] + 3000)) < 1e-6, c
    assert c["left"]["first"] == entry["left"], c
    assert c["running"] == "second" and c["left"]["second"] == 300000, c
    # A flag: a clock of 3 seconds, nobody moves.
    set_clock(d, "0.05")
    s = new_game(d, "brandubh", "hotseat")
    wait(d, "the flag", lambda d: (n := state(d)) and n["result"] and n)
    s = state(d)
    assert s["result"]["winner"] == "second" and "ran out of time" in s["result"]["reason"], s["result"]
    assert d.find_elements(By.CSS_SELECTOR, ".clock.flagged")
    assert "0:00.0" in d.find_element(By.ID, "clocks").text
    set_clock(d, "x+y")
    d.find_element(By.ID, "new").click()
    wait(d, "the clock's error", lambda d: "Clock" in d.find_element(By.ID, "error").text)
    set_clock(d, "")
    print("clocks: 5+3 with its increment; 3 s flag: defenders win on time; a bad time control refused")


def sound_and_theme(d, rng, shot_dir):
    assert not d.find_element(By.ID, "sound").is_selected(), "sound on by default"
    s = new_game(d, "ataxx", "hotseat")
    s = play_click(d, s, rng)
    assert d.execute_script("return window.skald.sounds.move") == 0
    d.find_element(By.ID, "sound").click()
    s = play_click(d, s, rng)
    assert d.execute_script("return window.skald.sounds.move + window.skald.sounds.capture") == 1
    Select(d.find_element(By.ID, "theme")).select_by_value("dark")
    assert d.execute_script("return document.documentElement.dataset.theme") == "dark"
    bg = d.execute_script("return getComputedStyle(document.body).backgroundColor")
    assert bg == "rgb(29, 31, 35)", bg
    d.refresh()
    idle(d)
    assert d.find_element(By.ID, "sound").is_selected(), "sound not remembered"
    assert d.execute_script("return document.documentElement.dataset.theme") == "dark"
    screenshot(d, shot_dir / "serve-dark.png")
    d.find_element(By.ID, "sound").click()
    Select(d.find_element(By.ID, "theme")).select_by_value("auto")
    assert d.execute_script("return document.documentElement.dataset.theme") == "light"
    print("sound: off by default, on and remembered; theme: dark and remembered, back to auto")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    args = sys.argv[1:]
    static = args and args[0] == "--static"
    if static:
        args = args[1:]
    target, shot_dir = args[0], Path(args[1])
    shot_dir.mkdir(parents=True, exist_ok=True)
    rng = random.Random(53)
    if static:
        port = free_port()
        server = subprocess.Popen(
            [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", target],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        url = f"http://127.0.0.1:{port}/"
        time.sleep(0.5)
    else:
        server, url = start_server(target)
    d = None
    try:
        d = browser(1280, 900)
        d.get(url)
        idle(d)
        assert bool(d.execute_script("return window.skald.local")) == bool(static)
        logged_errors(d)
        move_list_and_stepping(d, rng)
        drag_and_drop(d, rng)
        premove(d, rng)
        resign_gameover_rematch(d, shot_dir)
        draw_offers(d, rng)
        rules_panel(d)
        hint(d)
        shared_link_and_fen(d, rng)
        captured_drawn(d, rng)
        clocks(d, rng)
        sound_and_theme(d, rng, shot_dir)
        errors = [e for e in logged_errors(d) if "favicon" not in e.get("message", "")]
        # (The bad FEN's 400 answer is logged by the browser as a failed resource.)
        errors = [e for e in errors if "400" not in e.get("message", "")]
        # (The static build: the page's first question to a server is a 404.)
        errors = [e for e in errors if not (static and "api/variants" in e.get("message", ""))]
        assert not errors, f"errors in the page: {json.dumps(errors)}"
    finally:
        if d:
            d.quit()
        server.kill()
        server.wait()
    print("page_features: all checks passed")


if __name__ == "__main__":
    main()
