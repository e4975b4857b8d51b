#!/usr/bin/env python3
"""SPSA tuning of skald's search parameters through `skald match`.

Build a tuning binary first (every tunable value of src/tuning.rs is then a UCI option
`Tune <name>`):

    cargo build --release --features tune
    cp target/release/skald /tmp/skald-tune
    ./target/release/skald openings --variant ataxx --plies 4 --count 200 --seed 7 --output /tmp/ataxx.fens
    scripts/spsa.py --engine /tmp/skald-tune --variant ataxx --openings /tmp/ataxx.fens \
        --iterations 200 --pairs 8 --tc 2+0.02 --params rfp_margin,lmr_base,lmr_divisor

The names, ranges and starting values are read from the tuning binary itself: its `uci` output
for the variant (`option name Tune <name> type spin default <value> min <min> max <max>`, the
default being the value that variant uses: the family's set or the variant's own), so this
script keeps no copy of the list. The step sizes follow from each range (below).

Each iteration perturbs every chosen value by +/- c_k (a random sign each), plays `--pairs` game
pairs of theta+ against theta- (colours swapped on each opening; the openings a random sample of
--openings drawn anew each iteration), and moves theta along the
result (Spall's SPSA with the usual gain sequences a_k = a / (A + k + 1)^0.602,
c_k = c / (k + 1)^0.101; c = max(1, range / 20) and a = range / 10 per value). It prints theta
after every iteration and, at the end, the values to write into src/tuning.rs (or the game
family's or variant's set). --start overrides starting values. Stdlib only; the match runner is
skald's own, so the rules are judged by skald's library.
"""

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile

TUNE_OPTION = re.compile(r"^option name Tune (\w+) type spin default (-?\d+) min (-?\d+) max (-?\d+)$")


def read_tunables(engine, variant):
    """name: (the variant's value, min, max) for every `Tune` option the tuning build lists."""
    script = f"setoption name UCI_Variant value {variant}\nuci\nquit\n"
    out = subprocess.run([engine], input=script, capture_output=True, text=True)
    tunable = {}
    for line in out.stdout.splitlines():
        m = TUNE_OPTION.match(line)
        if m:
            tunable[m.group(1)] = tuple(int(v) for v in m.groups()[1:])
    if not tunable:
        sys.exit(f"spsa: {engine} lists no Tune options (build it with --features tune)\n{out.stderr}")
    return tunable


SCORE = re.compile(r"^Score of .*: (\d+) - (\d+) - (\d+)")


def engine_spec(name, binary, values):
    fields = [f"name={name}", f"cmd={binary}"]
    fields += [f"option.Tune {k}={round(v)}" for k, v in values.items()]
    return " ".join(fields)


def play(args, plus, minus, openings):
    """Plays args.pairs game pairs of plus against minus from the book file `openings` (or the
    start position); returns plus's score in [0, 1]."""
    cmd = [
        args.skald,
        "match",
        "--engine", engine_spec("plus", args.engine, plus),
        "--engine", engine_spec("minus", args.engine, minus),
        "--variant", args.variant,
        "--games", str(2 * args.pairs),
        "--tc", args.tc,
        "--concurrency", str(args.concurrency),
    ]
    if openings:
        cmd += ["--openings", openings]
    out = subprocess.run(cmd, capture_output=True, text=True)
    for line in out.stdout.splitlines():
        m = SCORE.match(line)
        if m:
            w, l, d = map(int, m.groups())
            n = w + l + d
            return (w + d / 2) / n if n else 0.5
    sys.exit(f"spsa: no score in the match output:\n{out.stdout}\n{out.stderr}")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--engine", required=True, help="a skald binary built with --features tune")
    p.add_argument("--skald", default="./target/release/skald", help="the skald that runs the match")
    p.add_argument("--variant", required=True)
    p.add_argument("--openings")
    p.add_argument("--params", required=True, help="comma-separated names of src/tuning.rs")
    p.add_argument("--iterations", type=int, default=100)
    p.add_argument("--pairs", type=int, default=4, help="game pairs per iteration")
    p.add_argument("--tc", default="2+0.02")
    p.add_argument("--concurrency", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--start", default="", help="name=value,... to start from instead of the defaults")
    args = p.parse_args()

    tunable = read_tunables(args.engine, args.variant)
    names = args.params.split(",")
    for n in names:
        if n not in tunable:
            sys.exit(f"spsa: unknown parameter {n!r}; known: {', '.join(tunable)}")
    theta = {n: float(tunable[n][0]) for n in names}
    for item in filter(None, args.start.split(",")):
        k, v = item.split("=")
        theta[k] = float(v)
    rng = random.Random(args.seed)
    # `skald match` plays a book from its first line: each iteration gets its own random sample
    # of the book (one opening a pair), so that the values are not fitted to a few openings.
    book = []
    if args.openings:
        with open(args.openings) as f:
            book = [line for line in f if line.strip()]
        if not book:
            sys.exit(f"spsa: {args.openings} has no openings")
    sample = tempfile.NamedTemporaryFile("w", suffix=".fens", delete=False)
    sample.close()
    big_a = 0.1 * args.iterations
    for k in range(args.iterations):
        plus, minus, delta = {}, {}, {}
        for n in names:
            _, lo, hi = tunable[n]
            c_k = max(1.0, (hi - lo) / 20) / (k + 1) ** 0.101
            delta[n] = rng.choice((-1, 1)) * c_k
            plus[n] = min(hi, max(lo, theta[n] + delta[n]))
            minus[n] = min(hi, max(lo, theta[n] - delta[n]))
        if book:
            with open(sample.name, "w") as f:
                f.writelines(rng.choice(book) for _ in range(args.pairs))
        score = play(args, plus, minus, sample.name if book else None)
        for n in names:
            _, lo, hi = tunable[n]
            a_k = ((hi - lo) / 10) / (big_a + k + 1) ** 0.602
            # theta+ won more than half: step toward theta+ (fishtest's simplified update).
            theta[n] = min(hi, max(lo, theta[n] + a_k * (score - 0.5) * 2 * (delta[n] / abs(delta[n]))))
        shown = ", ".join(f"{n}={theta[n]:.1f}" for n in names)
        print(f"iteration {k + 1}: score {score:.3f}  {shown}", flush=True)
    print("tuned:", ", ".join(f"{n}: {round(theta[n])}" for n in names))
    os.unlink(sample.name)


if __name__ == "__main__":
    main()
