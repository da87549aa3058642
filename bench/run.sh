#!/usr/bin/env bash
# bench/run.sh — side-by-side benchmarks of bakefs against its peers,
# reported as ratios measured in the same run. `make bench` calls it; it is
# not part of `make test`. This script installs the peers the chosen
# sections need (bench/suite -peers-needed lists them) and runs bench/suite,
# which holds the sections, their tables and the goals; see bench/README.md.
#
# Usage: bash bench/run.sh [SECTION...]   (go run ./bench/suite -h lists them;
#                                          goals: every section with a goal)
#
# Environment:
#   BENCH_ROUNDS   rounds of each side-by-side comparison (default 5)
#   BENCH_RESULTS  also write the Markdown results to this file
#   BENCH_PEERS    where peers are installed and kept between runs
#                  (default ~/.cache/bakefs-bench)
#   BENCH_KEEP=1   keep the temporary directory and print its path
#   BENCH_BAKEFS   a bakefs binary to measure instead of building ./cmd/bakefs
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
export GOTOOLCHAIN=local GOFLAGS=-buildvcs=false
PEERS=${BENCH_PEERS:-${XDG_CACHE_HOME:-$HOME/.cache}/bakefs-bench}
log() { echo "bench: $*" >&2; }

mapfile -t needed < <(go run ./bench/suite -peers-needed "$@")
debian=() npm=()
for line in "${needed[@]}"; do
  read -r kind a b c <<<"$line"
  case $kind in
  debian)
    if [[ $a == /* ]]; then [ -e "$a" ] || debian+=("$b"); else command -v "$a" >/dev/null || debian+=("$b"); fi ;;
  npm)
    name=${a%@*} version=${a##*@}
    [ "$(node -p "require('$PEERS/npm/node_modules/$name/package.json').version" 2>/dev/null)" = "$version" ] || npm+=("$a") ;;
  go | gomod)
    # A module of its own for each Go peer, so that this module's go.mod
    # never names it; a program of bench/peers is copied in.
    mod=$PEERS/go/$a
    if [ ! -f "$mod/go.sum" ] || ! grep -q "^${b%@*} ${b##*@} " "$mod/go.sum"; then
      log "fetching $b (Go module)"
      rm -rf "$mod" && mkdir -p "$mod"
      printf 'module %s\n\ngo 1.26\n' "${a//-/}" >"$mod/go.mod"
      (cd "$mod" && go get "$b" >/dev/null 2>&1)
      if [ -f "bench/peers/$a/main.go" ]; then
        grep -v '^//go:build ignore$' "bench/peers/$a/main.go" >"$mod/main.go"
        # A program that embeds site/ (statigz-server) needs one to build.
        if grep -q '^//go:embed site$' "$mod/main.go"; then mkdir -p "$mod/site" && echo . >"$mod/site/keep.txt"; fi
        (cd "$mod" && go mod tidy >/dev/null 2>&1)
      fi
      rm -f "$PEERS/bin/$a"
    fi
    if [ "$kind" = go ] && [ ! -x "$PEERS/bin/$a" ]; then
      pkg=$c
      [ "$pkg" = "bench/peers/$a" ] && pkg=.
      (cd "$mod" && go build -o "$PEERS/bin/$a" "$pkg")
    fi ;;
  *) echo "bench/run.sh: bench/suite printed an unknown peer: $line" >&2; exit 1 ;;
  esac
done
if [ ${#debian[@]} -gt 0 ]; then
  log "installing ${debian[*]} (Debian packages)"
  sudo=
  [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${debian[@]}" >/dev/null
fi
if [ ${#npm[@]} -gt 0 ]; then
  log "installing ${npm[*]} (npm)"
  npm install --prefix "$PEERS/npm" --no-audit --no-fund --silent "${npm[@]}" >/dev/null
fi

args=(-rounds "${BENCH_ROUNDS:-5}" -peers "$PEERS")
[ -n "${BENCH_RESULTS:-}" ] && args+=(-results "$BENCH_RESULTS")
[ -n "${BENCH_BAKEFS:-}" ] && args+=(-bakefs "$BENCH_BAKEFS")
[ "${BENCH_KEEP:-0}" = 1 ] && args+=(-keep)
exec go run ./bench/suite "${args[@]}" "$@"
