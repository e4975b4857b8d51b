#!/usr/bin/env bash
# Never lose on time: plays GAMES games (default 200) of skald against itself at TC (default
# 1+0.01: 1 s + 10 ms per move) for each variant given (default: all four) and fails if any game
# is lost on time.
#   [TC=2+0.05] [CONCURRENCY=2] [SKALD=path] scripts/time-forfeit.sh [GAMES] [VARIANT...]
# Plays CONCURRENCY games at once (default 2, one per core of the project machines). SKALD is the
# binary to test (default: build and use target/release/skald). Takes about 5 to 10 minutes per
# variant at the defaults; not part of the test suite. To measure under load, run it while
# another CPU-heavy job runs (e.g. `yes > /dev/null &` once per core).
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-200}
shift || true
variants=("$@")
[ ${#variants[@]} -gt 0 ] || variants=(brandubh tablut tawlbwrdd ataxx)
if [ -n "${SKALD:-}" ]; then
  bin=$SKALD
else
  cargo build --release --quiet
  bin=./target/release/skald
fi
tc=${TC:-1+0.01}
status=0
for v in "${variants[@]}"; do
  log=$(mktemp)
  openings=$(mktemp)
  "$bin" openings --variant "$v" --plies 4 --count 50 --max-score 1000 --output "$openings"
  "$bin" match --engine "$bin" --engine "$bin" --variant "$v" --games "$games" --tc "$tc" \
    --openings "$openings" --concurrency "${CONCURRENCY:-2}" >"$log" 2>&1 || true
  finished=$(grep -c "^Finished game" "$log" || true)
  forfeits=$(grep -c "loses on time" "$log" || true)
  echo "$v at $tc: $finished games finished, $forfeits lost on time"
  grep "^Score of\|^Elo" "$log" || tail -n 3 "$log"
  if [ "$forfeits" -gt 0 ] || [ "$finished" -lt "$games" ]; then
    grep "loses on time" "$log" || true
    status=1
  fi
  rm -f "$log" "$openings"
done
exit $status
