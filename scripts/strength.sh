#!/usr/bin/env bash
# Self-play strength checks, each a `skald match` with colour-swapped openings:
#   full   – the full search against `Basic Search` (plain alpha-beta + TT, the first version);
#   smp    – 2 threads against 1 thread at equal time;
#   levels – easy against medium and medium against hard.
#   scripts/strength.sh [full|smp|levels]... [-- GAMES TC VARIANTS...]
# Defaults: all three, 20 games, 2+0.05, every variant (levels: tablut and ataxx). Output goes to
# stdout; each match ends with its "Score of …" and "Elo difference …" lines.
set -euo pipefail
cd "$(dirname "$0")/.."
what=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do what+=("$1"); shift; done
[ $# -gt 0 ] && shift
games=${1:-20}
tc=${2:-2+0.05}
shift 2 2>/dev/null || true
variants=("$@")
[ ${#what[@]} -gt 0 ] || what=(full smp levels)
cargo build --release --quiet
S=./target/release/skald
dir=$(mktemp -d)
openings() { [ -s "$dir/$1" ] || "$S" openings --variant "$1" --plies 4 --count 50 --max-score 1000 --output "$dir/$1"; echo "$dir/$1"; }
match() { # variant engine1 engine2
  echo "== $1: $2  vs  $3"
  "$S" match --engine "$2" --engine "$3" --variant "$1" --games "$games" --tc "$tc" \
    --openings "$(openings "$1")" 2>&1 | grep -E "^(Score of|Elo difference|.*loses on time)"
}
for w in "${what[@]}"; do
  case $w in
    full)
      for v in "${variants[@]:-brandubh tablut tawlbwrdd ataxx}"; do for v1 in $v; do
        match "$v1" "name=full cmd=$S" "name=basic cmd=$S option.Basic Search=true"
      done; done ;;
    smp)
      for v in "${variants[@]:-tablut ataxx}"; do for v1 in $v; do
        match "$v1" "name=threads2 cmd=$S option.Threads=2" "name=threads1 cmd=$S option.Threads=1"
      done; done ;;
    levels)
      for v in "${variants[@]:-tablut ataxx}"; do for v1 in $v; do
        match "$v1" "name=medium cmd=$S option.Skill Level=medium" "name=easy cmd=$S option.Skill Level=easy"
        match "$v1" "name=hard cmd=$S option.Skill Level=hard" "name=medium cmd=$S option.Skill Level=medium"
      done; done ;;
    *) echo "unknown check '$w' (full, smp, levels)" >&2; exit 2 ;;
  esac
done
rm -rf "$dir"
