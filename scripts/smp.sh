#!/usr/bin/env bash
# Lazy SMP figures: nodes per second and time to a fixed depth on the bench positions with 1 and
# 2 threads (best of RUNS runs each). Run on an otherwise idle machine.
#   scripts/smp.sh [DEPTH] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
depth=${1:-9}
runs=${2:-3}
cargo build --release --quiet
for threads in 1 2; do
  best=""
  for _ in $(seq "$runs"); do
    start=$(date +%s%N)
    line=$(./target/release/skald bench --depth "$depth" --threads "$threads" 2>/dev/null | tail -n 1)
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    if [ -z "$best" ] || [ "$ms" -lt "${best%% *}" ]; then best="$ms ms, $line"; fi
  done
  echo "threads $threads, depth $depth: $best"
done
