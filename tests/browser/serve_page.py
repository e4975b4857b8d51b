#!/usr/bin/env python3
"""`skald serve`'s page in a real browser (headless Chromium through selenium and Debian's
chromedriver), driven by clicks and keys as a player would: a whole Brandubh game and a whole
Ataxx game against the engine (easy), every game at every level (a move and the reply), a
hot-seat game (moves by mouse and by keyboard only with the focus kept, one Tab stop for the
board, undo, flip not kept into the next game), a record saved and loaded, an
OpenTafl rules string (and a bad one), analysis mode (evaluation bar, depth, the best line's
arrows, MultiPV lines, and that it says when it is done), a finished record loaded (no game
played in the tally), a game the server dropped (said so, no move offered, a new game offered),
undo not offered when only the computer has moved, the whole board in a 1280x657 window, a pass
shown as "pass" and announced, and a server that is gone (a human message). Takes screenshots
(the README's) into the directory given.

Usage: serve_page.py SKALD_BINARY SCREENSHOT_DIR

Run by tests/serve_browser.rs; exits 0 when every check passed, else prints what failed.
The server runs with a node cap per search (the hidden --max-nodes) so that the games are
quick and do not depend on the machine's speed.
"""

import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
WAIT = 30  # seconds for any one thing to happen on the page
# The node cap of every search (SERVE_PAGE_NODES: more for deeper analysis in screenshots).
NODES = os.environ.get("SERVE_PAGE_NODES", "1500")


def start_server(binary):
    proc = subprocess.Popen(
        [binary, "serve", "--port", "0", "--max-nodes", NODES, "--analysis-time", "20"],
        stdout=subprocess.PIPE,
        text=True,
    )
    line = proc.stdout.readline()
    prefix = "skald serve: "
    if not line.startswith(prefix):
        proc.kill()
        sys.exit(f"no address line from skald serve: {line!r}")
    return proc, line[len(prefix):].strip()


def browser(width, height):
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--hide-scrollbars",
        f"--window-size={width},{height}",
    ):
        opts.add_argument(arg)
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)


def state(d):
    return d.execute_script("return window.skald && window.skald.state")


def wait(d, what, check):
    try:
        return WebDriverWait(d, WAIT, poll_frequency=0.02).until(lambda d: check(d))
    except Exception:
        raise AssertionError(f"timed out waiting for {what}; state: {state(d)}")


def idle(d):
    """Waits until the page is ready for the player: no request under way, not the engine's
    turn (or the game is over)."""

    def ready(d):
        s = state(d)
        busy = d.execute_script("return window.skald.busy")
        if s and not busy and (s["result"] or not s["engine_to_move"]):
            return s
        return None

    return wait(d, "the page to be idle", ready)


def square(d, name):
    return d.find_element(By.CSS_SELECTOR, f'rect[data-sq="{name}"]')


def new_game(d, variant, mode="computer", level="easy", side="first"):
    old = state(d)
    Select(d.find_element(By.ID, "variant")).select_by_value(variant)
    Select(d.find_element(By.ID, "mode")).select_by_value(mode)
    if mode == "computer":
        Select(d.find_element(By.ID, "level")).select_by_value(level)
        Select(d.find_element(By.ID, "side")).select_by_value(side)
    d.find_element(By.ID, "new").click()
    wait(d, "the new game", lambda d: (s := state(d)) and (not old or s["id"] != old["id"]) and s)
    return idle(d)


def pick(s, rng):
    """A random legal move as (from, to, move), or None for a pass."""
    choices = [(f, t["to"], t["move"]) for f, ts in sorted(s["targets"].items()) for t in ts]
    return rng.choice(choices) if choices else None


def screenshot(d, path):
    d.execute_script("window.scrollTo(0, 0)")
    d.save_screenshot(str(path))


def click_move(d, s, rng, shot=None):
    """Plays a random legal move by two clicks; checks the targets shown; returns the move."""
    choice = pick(s, rng)
    if choice is None:
        assert s["pass"], f"no move and no pass: {s}"
        d.find_element(By.ID, "pass").click()
        return s["pass"]
    frm, to, mv = choice
    square(d, frm).click()
    shown = {c.get_attribute("data-target") for c in d.find_elements(By.CSS_SELECTOR, "circle[data-target]")}
    wanted = {t["to"] for t in s["targets"][frm]}
    assert shown == wanted, f"targets of {frm}: shown {shown}, legal {wanted}"
    if shot:
        screenshot(d, shot)
    square(d, to).click()
    return mv


def whole_game_vs_engine(d, variant, side, rng, shot_dir, shot_name, max_plies=400):
    s = new_game(d, variant, "computer", "easy", side)
    assert s["mode"] == "computer" and s["human"] == side
    plies = 0
    shot_taken = False
    while not s["result"]:
        version = s["version"]
        shot = None
        if plies >= 4 and not shot_taken:
            shot, shot_taken = shot_dir / shot_name, True
        click_move(d, s, rng, shot)
        s = wait(d, "the move", lambda d: (n := state(d)) and n["version"] > version and n)
        s = idle(d)
        plies = len(s["moves"])
        assert plies <= max_plies, f"{variant}: no end after {plies} plies"
    if not shot_taken:
        time.sleep(0.7)  # the captures' animation
        screenshot(d, shot_dir / shot_name)
    status = d.find_element(By.ID, "status").text
    assert "Game over" in status and s["result"]["reason"] in status, status
    material = d.find_element(By.ID, "material").text
    if variant == "ataxx":
        stones = [sum(row.count(c) for row in s["board"]) for c in "xo"]
        assert material == f"Stones: x (black) {stones[0]} : {stones[1]} o (white)", material
    else:
        assert material.startswith("Pieces captured: "), material
    tally = d.find_element(By.ID, "tally-text").text
    print(f"{variant}: {s['result']['text']} after {len(s['moves'])} plies; {tally}")
    return s


def every_variant_and_level(d, rng):
    """Every game at every level, and as the second side: a move by clicks and the reply."""
    variants = ["brandubh", "tablut", "tawlbwrdd", "copenhagen", "copenhagen13", "ashton", "ataxx"]
    for i, variant in enumerate(variants):
        for j, level in enumerate(["easy", "medium", "hard"]):
            side = "second" if (i + j) % 2 else "first"
            s = new_game(d, variant, "computer", level, side)
            assert s["variant"] == variant and s["level"]["name"] == level, s
            assert s["human"] == side and s["to_move"] == side, s
            assert len(d.find_elements(By.CSS_SELECTOR, "rect[data-sq]")) == s["size"] ** 2
            # The person's side at the bottom: the board is flipped for the second side.
            a1_top = float(square(d, "a1").get_attribute("y")) == 0
            assert a1_top == (side == "second"), (variant, side)
            version = s["version"]
            click_move(d, s, rng)
            s = wait(d, "the move", lambda d: (n := state(d)) and n["version"] > version and n)
            s = idle(d)
            assert s["result"] or s["to_move"] == side, s
    print(f"every variant at every level: {len(variants) * 3} games")


def hotseat(d, rng):
    s = new_game(d, "brandubh", "hotseat")
    assert s["mode"] == "hotseat"
    for i in range(4):
        version = s["version"]
        click_move(d, s, rng)
        s = wait(d, "the hot-seat move", lambda d: (n := state(d)) and n["version"] > version and n)
        assert s["to_move"] == ("second" if i % 2 == 0 else "first")
    items = d.find_elements(By.CSS_SELECTOR, "#movelist li")
    assert len(items) == 2, [i.text for i in items]
    # The board is one Tab stop (from the New game button to a square, then on to Undo).
    d.execute_script("document.getElementById('new').focus()")
    tab_stops = []
    for _ in range(2):
        d.switch_to.active_element.send_keys(Keys.TAB)
        a = d.switch_to.active_element
        tab_stops.append(a.get_attribute("data-sq") and "square" or a.get_attribute("id"))
    assert tab_stops == ["square", "undo"], tab_stops
    # And Load record one stop (from Save .otg to it, then on to reset).
    d.execute_script("document.getElementById('save-otg').focus()")
    tab_stops = []
    for _ in range(2):
        d.switch_to.active_element.send_keys(Keys.TAB)
        a = d.switch_to.active_element
        tab_stops.append(a.get_attribute("id") or a.get_attribute("class"))
    assert tab_stops == ["file", "reset-tally"], tab_stops
    # Two moves by keyboard only: walk to a piece, Enter, walk to its target, Enter; the focus
    # stays on the board after each.
    square(d, "a1").click()  # focus (an empty corner: nothing is picked)
    cursor = "a1"

    def walk(a, b):
        (fa, ra), (fb, rb) = coords(a), coords(b)
        keys = [Keys.ARROW_RIGHT if fb > fa else Keys.ARROW_LEFT] * abs(fb - fa)
        keys += [Keys.ARROW_UP if rb > ra else Keys.ARROW_DOWN] * abs(rb - ra)
        for k in keys:
            d.switch_to.active_element.send_keys(k)

    for _ in range(2):
        frm, to, mv = pick(s, rng)
        walk(cursor, frm)
        d.switch_to.active_element.send_keys(Keys.ENTER)
        assert d.find_elements(By.CSS_SELECTOR, "circle[data-target]"), "Enter picked no piece"
        walk(frm, to)
        version = s["version"]
        d.switch_to.active_element.send_keys(Keys.ENTER)
        s = wait(d, "the keyboard move", lambda d: (n := state(d)) and n["version"] > version and n)
        assert s["moves"][-1] == mv, (s["moves"], mv)
        focused = d.switch_to.active_element.get_attribute("data-sq")
        assert focused == to, f"the focus after the move: {focused}, not {to}"
        cursor = to
    # Undo and flip.
    d.find_element(By.ID, "undo").click()
    s = wait(d, "undo", lambda d: (n := state(d)) and len(n["moves"]) == 5 and n)
    y = float(square(d, "a1").get_attribute("y"))
    d.find_element(By.ID, "flip").click()
    y_flipped = float(square(d, "a1").get_attribute("y"))
    assert y > y_flipped, f"a1 at y {y}, flipped {y_flipped}"
    # The record as the Save button fetches it (before a new game replaces this one: the page
    # deletes the game it leaves).
    pgn = record_of(d, s["id"])
    # A flipped board is not flipped in the next game.
    new_game(d, "brandubh", "hotseat")
    assert float(square(d, "a1").get_attribute("y")) == y, "the flip outlived its game"
    print(f"hot-seat: {len(s['moves'])} plies after undo, flip ok")
    return s, pgn


def record_of(d, game_id, fmt="pgn"):
    """The game's record, fetched by the page as its Save button does."""
    return d.execute_script(
        f"return fetch('/api/games/{game_id}/record?format={fmt}').then(r => r.text())")


def records(d, played, pgn, tmp):
    """Loads a saved PGN into a new game by the Load button's file input."""
    assert '[Variant "brandubh"]' in pgn, pgn
    path = tmp / "game.pgn"
    path.write_text(pgn)
    new_game(d, "ataxx", "hotseat")
    version = state(d)["version"]
    d.find_element(By.ID, "load").send_keys(str(path.resolve()))
    s = wait(d, "the loaded game", lambda d: (n := state(d)) and n["version"] > version and n)
    assert s["variant"] == "brandubh" and s["moves"] == played["moves"], s["moves"]
    assert len(d.find_elements(By.CSS_SELECTOR, "#movelist li")) == (len(s["moves"]) + 1) // 2
    print(f"records: {len(s['moves'])} plies saved and loaded")


def opentafl_rules(d):
    rules = "dim:9 name:mine esc:e ka:n cenh: start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/"
    Select(d.find_element(By.ID, "variant")).select_by_value("rules")
    field = d.find_element(By.ID, "rules")
    assert field.is_displayed()
    field.clear()
    field.send_keys(rules)
    s = new_game(d, "rules", "hotseat")
    assert s["rules"] == rules and s["size"] == 9 and s["family"] == "tafl", s
    assert len(d.find_elements(By.CSS_SELECTOR, "rect[data-sq]")) == 81
    # A bad rules string: an error on the page, the game as it was.
    field = d.find_element(By.ID, "rules")
    field.clear()
    field.send_keys("dim:7 kj:y")
    d.find_element(By.ID, "new").click()
    wait(d, "the error", lambda d: "unsupported" in d.find_element(By.ID, "error").text)
    assert state(d)["id"] == s["id"]
    # The console has the refused request's status; nothing else.
    logged = [e for e in d.get_log("browser") if e.get("level") == "SEVERE"]
    assert all("400" in e["message"] for e in logged), logged
    print(f"OpenTafl rules: a {s['size']}x{s['size']} game")


def logged_errors(d):
    """The browser's console errors since the last call (reading them clears them)."""
    return [e for e in d.get_log("browser") if e.get("level") == "SEVERE"]


def finished_record_is_no_game_played(d, finished, tmp):
    """Loading a finished game's record (three times) into a game against the computer does not
    count as games played in the W/D/L tally."""
    pgn = record_of(d, finished["id"])
    assert pgn.strip().endswith(("1-0", "0-1", "1/2-1/2")), pgn
    path = tmp / "finished.pgn"
    path.write_text(pgn)
    new_game(d, "ataxx", "computer", "easy", "first")
    tally = d.find_element(By.ID, "tally-text").text
    for _ in range(3):
        version = state(d)["version"]
        d.find_element(By.ID, "load").send_keys(str(path.resolve()))
        s = wait(d, "the loaded game", lambda d: (n := state(d)) and n["version"] > version and n)
        assert s["result"], s["result"]
    assert d.find_element(By.ID, "tally-text").text == tally, (tally, d.find_element(By.ID, "tally-text").text)
    print(f"a finished record loaded three times: the tally stays '{tally}'")


def dropped_game(d, rng):
    """A move in a game the server no longer has: the page says so, offers no move (no targets,
    not "Your move"), and offers a new game, which plays."""
    s = new_game(d, "brandubh", "computer", "easy", "first")
    status = d.execute_script(
        f"return fetch('/api/games/{s['id']}', {{method: 'DELETE', headers: "
        "{'Content-Type': 'application/json'}}).then(r => r.status)")
    assert status == 204, status
    frm, to, _ = pick(s, rng)
    square(d, frm).click()
    square(d, to).click()
    wait(d, "the error", lambda d: "no longer on the server" in d.find_element(By.ID, "error").text)
    status = d.find_element(By.ID, "status").text
    assert "Your move" not in status and "new game" in status, status
    square(d, frm).click()
    assert not d.find_elements(By.CSS_SELECTOR, "circle[data-target]"), "targets in a game that is gone"
    assert not d.find_element(By.ID, "undo").is_enabled()
    regame = d.find_element(By.ID, "regame")
    assert regame.is_displayed()
    regame.click()
    s2 = wait(d, "the new game", lambda d: (n := state(d)) and n["id"] != s["id"] and n)
    idle(d)
    assert not regame.is_displayed() and d.find_element(By.ID, "error").text == ""
    assert "Your move" in d.find_element(By.ID, "status").text
    assert s2["mode"] == "computer"
    # The console has the refused move's 404; nothing else.
    logged = logged_errors(d)
    assert logged and all("404" in e["message"] for e in logged), logged
    print("a dropped game: said so, no move offered, a new game offered")


def undo_after_the_computers_first_move(d):
    """Playing second: after the computer's first move there is nothing of yours to undo."""
    s = new_game(d, "tablut", "computer", "easy", "second")
    assert len(s["moves"]) == 1 and s["can_undo"] is False, s
    assert not d.find_element(By.ID, "undo").is_enabled()
    print("undo: not offered after the computer's first move only")


def whole_board_in_the_window(d):
    """In a 1280x800 screen's browser window (1280x657 for the page) every board is whole on the
    screen: the bottom rank and the coordinates too, with the analysis on or off."""
    d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                      {"width": 1280, "height": 657, "deviceScaleFactor": 1, "mobile": False})
    try:
        assert d.execute_script("return window.innerHeight") == 657
        for variant in ["brandubh", "tablut", "copenhagen", "copenhagen13"]:
            new_game(d, variant, "hotseat")
            for analysing in [False, True]:
                if analysing:
                    d.find_element(By.ID, "analyse").click()
                d.execute_script("window.scrollTo(0, 0)")
                box = d.execute_script(
                    "const r = document.getElementById('board').getBoundingClientRect();"
                    "return [r.top, r.bottom, r.left, r.right]")
                top, bottom, left, right = box
                assert top >= 0 and bottom <= 657 and left >= 0 and right <= 1280, (variant, analysing, box)
                assert right - left >= 400, (variant, box)
            d.find_element(By.ID, "analyse").click()
        print(f"1280x657: every board whole on the screen (the last {right - left:.0f}x{bottom - top:.0f})")
    finally:
        d.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def a_pass(d, tmp):
    """An Ataxx position where the person (o) has no move: the status line says to pass, Pass
    is offered, and the move list shows "pass" (not 0000)."""
    new_game(d, "ataxx", "computer", "easy", "second")
    path = tmp / "pass.pgn"
    path.write_text('[Variant "ataxx"]\n[FEN "7/7/7/7/xxx4/xxx4/oxx4 o 0 1"]\n\n*\n')
    version = state(d)["version"]
    d.find_element(By.ID, "load").send_keys(str(path.resolve()))
    s = wait(d, "the loaded position", lambda d: (n := state(d)) and n["version"] > version and n)
    assert s["legal"] == ["0000"] and s["to_move"] == "second", s
    status = d.find_element(By.ID, "status").text
    assert "must pass" in status, status
    button = d.find_element(By.ID, "pass")
    assert button.is_displayed()
    button.click()
    s = wait(d, "the pass", lambda d: (n := state(d)) and len(n["moves"]) >= 1 and n)
    idle(d)
    moves = d.find_element(By.ID, "movelist").text
    assert "pass" in moves and "0000" not in moves, moves
    print(f"a pass: announced and shown as 'pass' ({moves.splitlines()[0]})")


def server_gone(d, server):
    """The server is gone: a click says so in words, not the browser's "Failed to fetch"."""
    server.kill()
    server.wait()
    d.find_element(By.ID, "new").click()
    wait(d, "the error", lambda d: d.find_element(By.ID, "error").text)
    text = d.find_element(By.ID, "error").text
    assert "does not answer" in text and "fetch" not in text.lower(), text
    print(f"the server gone: '{text}'")


def coords(name):
    return ord(name[0]) - ord("a"), int(name[1:]) - 1


def analysis(d, shot_dir, rng):
    s = new_game(d, "brandubh", "computer", "easy", "first")
    for _ in range(2):
        version = s["version"]
        click_move(d, s, rng)
        wait(d, "the move", lambda d: (n := state(d)) and n["version"] > version)
        s = idle(d)
    d.find_element(By.ID, "analyse").click()
    wait(d, "analysis lines", lambda d: d.execute_script(
        "const a = window.skald.analysis; return a.lines.length > 0 && a.lines[0].depth >= 1"))
    # The search ends (its node cap): the panel says so.
    wait(d, "the analysis to say it is done", lambda d: d.execute_script(
        "const a = window.skald.analysis; return a.info && a.info.state === 'done'"))
    assert "done" in d.find_element(By.ID, "an-info").text, d.find_element(By.ID, "an-info").text
    wait(d, "the best line's arrows", lambda d: d.find_elements(By.CSS_SELECTOR, "[data-arrow]"))
    info = d.find_element(By.ID, "an-info").text
    assert "Depth" in info, info
    assert d.find_element(By.ID, "evalbar").is_displayed()
    # (Read in one go: the list is drawn again at each report.)
    lines, bar, best, size, mode = d.execute_script(
        "const t = document.getElementById('evaltext'); const st = getComputedStyle(t);"
        "return [[...document.querySelectorAll('#an-lines li')].map(li => li.textContent),"
        " t.textContent, document.querySelector('#an-lines .score').textContent,"
        " parseFloat(st.fontSize), st.writingMode]")
    assert lines and lines[0], "no MultiPV lines"
    # Every score from the first side's view: the bar's number is the best line's, readable.
    assert bar == best, (bar, best)
    assert size >= 14 and mode == "horizontal-tb", (size, mode)
    assert "Scores for attackers" in d.find_element(By.ID, "an-view").text
    time.sleep(0.7)  # the captures' animation
    screenshot(d, shot_dir / "serve-analysis.png")
    # A move restarts the analysis on the new position.
    version = s["version"]
    click_move(d, s, rng)
    wait(d, "the move", lambda d: (n := state(d)) and n["version"] > version)
    s = idle(d)
    if s["result"]:
        # The random move (or the engine's answer) ended the game: there is nothing to
        # analyse, and the analysis says so.
        wait(d, "the analysis of the finished game", lambda d: d.execute_script(
            "const a = window.skald.analysis; return a.info && a.info.state === 'over'"))
    else:
        wait(d, "analysis of the new position", lambda d: d.execute_script(
            "const a = window.skald.analysis; return a.lines.length > 0 && "
            "a.lines[0].version === window.skald.state.version"))
    d.find_element(By.ID, "analyse").click()
    assert not d.find_element(By.ID, "evalbar").is_displayed()
    print(f"analysis: {info}; {len(lines)} lines")


def phone(d, shot_dir):
    d.set_window_size(390, 844)
    d.refresh()
    idle(d)
    wide = d.execute_script("return document.documentElement.scrollWidth > window.innerWidth + 1")
    assert not wide, "the page is wider than a phone's screen"
    board = d.find_element(By.ID, "board").rect
    assert board["width"] >= 300, board
    # The status line above the board, on the screen; the game's name not cut off.
    status = d.find_element(By.ID, "status").rect
    height = d.execute_script("return window.innerHeight")
    assert status["y"] + status["height"] <= board["y"] <= height, (status, board, height)
    screenshot(d, shot_dir / "serve-phone.png")
    Select(d.find_element(By.ID, "variant")).select_by_value("copenhagen13")
    cut = d.execute_script(
        "const v = document.getElementById('variant'); const c = document.createElement('canvas')"
        ".getContext('2d'); c.font = getComputedStyle(v).font;"
        "return c.measureText(v.selectedOptions[0].text).width + 30 > v.clientWidth")
    assert not cut, "the game's name is cut off"
    print(f"phone: board {board['width']:.0f} px wide")


def main():
    binary, shot_dir = sys.argv[1], Path(sys.argv[2])
    shot_dir.mkdir(parents=True, exist_ok=True)
    rng = random.Random(23)
    server, url = start_server(binary)
    d = None
    try:
        d = browser(1200, 940)
        d.get(url)
        idle(d)
        tmp = Path(tempfile.mkdtemp(prefix="skald-serve-"))
        finished = whole_game_vs_engine(d, "brandubh", "first", rng, shot_dir, "serve-brandubh.png")
        finished_record_is_no_game_played(d, finished, tmp)
        whole_game_vs_engine(d, "ataxx", "first", rng, shot_dir, "serve-ataxx.png")
        every_variant_and_level(d, rng)
        played, pgn = hotseat(d, rng)
        records(d, played, pgn, tmp)
        opentafl_rules(d)
        analysis(d, shot_dir, rng)
        undo_after_the_computers_first_move(d)
        a_pass(d, tmp)
        whole_board_in_the_window(d)
        errors = logged_errors(d)
        assert not errors, f"errors in the page: {errors}"
        dropped_game(d, rng)
        phone(d, shot_dir)
        # (No error in the page, the content security policy's refusals included.)
        errors = logged_errors(d)
        assert not errors, f"errors in the page: {errors}"
        server_gone(d, server)
    finally:
        if d:
            d.quit()
        server.kill()
        server.wait()
    print("serve_page: all checks passed")


if __name__ == "__main__":
    main()
