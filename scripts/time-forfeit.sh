#!/usr/bin/env bash
# Never lose on time: plays GAMES games (default 200) of skald against itself at 1 s + 10 ms per
# game for each variant given (default: all four) and fails if any game is lost on time.
#   scripts/time-forfeit.sh [GAMES] [VARIANT...]
# Plays CONCURRENCY games at once (default 2, one per core of the project machines). Takes about
# 5 to 10 minutes per variant; not part of the test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-200}
shift || true
variants=("$@")
[ ${#variants[@]} -gt 0 ] || variants=(brandubh tablut tawlbwrdd ataxx)
cargo build --release --quiet
bin=./target/release/skald
status=0
for v in "${variants[@]}"; do
  log=$(mktemp)
  openings=$(mktemp)
  "$bin" openings --variant "$v" --plies 4 --count 50 --max-score 1000 --output "$openings"
  "$bin" match --engine "$bin" --engine "$bin" --variant "$v" --games "$games" --tc 1+0.01 \
    --openings "$openings" --concurrency "${CONCURRENCY:-2}" >"$log" 2>&1 || true
  finished=$(grep -c "^Finished game" "$log" || true)
  forfeits=$(grep -c "loses on time" "$log" || true)
  echo "$v: $finished games finished, $forfeits lost on time"
  grep "^Score of\|^Elo" "$log" || tail -n 3 "$log"
  if [ "$forfeits" -gt 0 ] || [ "$finished" -lt "$games" ]; then
    grep "loses on time" "$log" || true
    status=1
  fi
  rm -f "$log" "$openings"
done
exit $status
