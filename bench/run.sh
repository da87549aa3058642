#!/usr/bin/env bash
# bench/run.sh — side-by-side benchmarks of bakefs against its peers,
# reported as ratios measured in the same run. `make bench` calls it; it is
# not part of `make test`. See bench/README.md for what each section
# measures.
#
# Usage: bash bench/run.sh [SECTION...]     SECTION: cold bundle minify warm
#                                            change serve compile images
#                                            rxjs three real pkgrss nochange
#                                            init devedit css vite imaging
#                                            lazy delta, or goals for rxjs
#                                            to imaging and lazy (default: all)
#
# Environment:
#   BENCH_ROUNDS   rounds of each side-by-side comparison (default 5)
#   BENCH_RESULTS  also write the Markdown results to this file
#   BENCH_PEERS    where peers are installed and kept between runs
#                  (default ~/.cache/bakefs-bench)
#   BENCH_KEEP=1   keep the temporary directory and print its path
#   BENCH_BAKEFS   a bakefs binary to measure instead of building ./cmd/bakefs
#
# Peers, installed when missing: hugo, wrk, hyperfine and rsync (Debian
# packages), cwebp and avifenc (Debian packages webp and libavif-bin), the esbuild CLI (npm, the version of the Go module in go.mod),
# go-bindata and vfsgen (Go modules, into BENCH_PEERS, not this module);
# for sections h-q also brotli, zstd, sphinx-doc and fonts-lato (Debian
# packages), rxjs, three, bootstrap, bulma, bootstrap-icons, vite and
# vite-plugin-compression2 (npm, pinned below), and statigz (Go module,
# built in a temporary module); for section r also react, react-dom and
# @vitejs/plugin-react (npm, pinned below).
# Every server listens on loopback only and every load run is bounded.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
export GOTOOLCHAIN=local GOFLAGS=-buildvcs=false

ROUNDS=${BENCH_ROUNDS:-5}
PEERS=${BENCH_PEERS:-${XDG_CACHE_HOME:-$HOME/.cache}/bakefs-bench}
GOALS=(rxjs three real pkgrss nochange init devedit css vite imaging lazy)
SECTIONS=()
for s in "$@"; do
  if [ "$s" = goals ]; then SECTIONS+=("${GOALS[@]}"); else SECTIONS+=("$s"); fi
done
[ ${#SECTIONS[@]} -gt 0 ] || SECTIONS=(cold bundle minify warm change serve compile images "${GOALS[@]}" delta)
for s in "${SECTIONS[@]}"; do
  case $s in cold | bundle | minify | warm | change | serve | compile | images) ;;
  rxjs | three | real | pkgrss | nochange | init | devedit | css | vite | imaging | lazy | delta) ;;
  *) echo "bench/run.sh: unknown section $s" >&2; exit 2 ;;
  esac
done

WORK=$(mktemp -d "${TMPDIR:-/tmp}/bakefs-bench.XXXXXX")
RESULTS=$WORK/results.md
SERVER_PID=
STATIGZ_PID=
cleanup() {
  local rc=$?
  local pid
  for pid in $SERVER_PID $STATIGZ_PID; do
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  if [ "${BENCH_KEEP:-0}" = 1 ]; then
    echo "bench/run.sh: kept $WORK" >&2
  else
    rm -rf "$WORK"
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

log() { echo "bench: $*" >&2; }
want() { local s; for s in "${SECTIONS[@]}"; do [ "$s" = "$1" ] && return 0; done; return 1; }
out() { printf '%s\n' "$@" >>"$RESULTS"; }
# bytes FILE...: total size in bytes.
bytes() { cat "$@" | wc -c | tr -d ' '; }
# runtime_module NAME DIR writes DIR/go.mod of module NAME, which depends on
# this checkout's runtime (fs/, a module of its own) as an application does.
runtime_module() { printf 'module %s\n\ngo 1.26\n\nreplace github.com/bakefs/bakefs/fs => %s/fs\n' "$1" "$ROOT" >"$2/go.mod"; }
# treebytes DIR: total size of the files under DIR but manifests and index pages.
treebytes() { find "$1" -type f ! -name bakefs-manifest.json ! -name index.html -print0 | xargs -0 cat | wc -c | tr -d ' '; }

# ---------------------------------------------------------------- peers --

install_debian() {
  local missing=()
  command -v hugo >/dev/null || missing+=(hugo)
  command -v wrk >/dev/null || missing+=(wrk)
  command -v hyperfine >/dev/null || missing+=(hyperfine)
  command -v rsync >/dev/null || missing+=(rsync)
  if want images; then
    command -v cwebp >/dev/null || missing+=(webp)
    command -v avifenc >/dev/null || missing+=(libavif-bin)
  fi
  if want real || want pkgrss || want nochange || want init || want devedit; then
    command -v brotli >/dev/null || missing+=(brotli)
    command -v zstd >/dev/null || missing+=(zstd)
    [ -d /usr/share/doc/sphinx-doc/html ] || missing+=(sphinx-doc)
    [ -d /usr/share/fonts/truetype/lato ] || missing+=(fonts-lato)
  fi
  [ ${#missing[@]} -eq 0 ] && return
  log "installing ${missing[*]} (Debian packages)"
  local sudo=
  [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

ESBUILD_VERSION=$(awk '$1 == "github.com/evanw/esbuild" { sub(/^v/, "", $2); print $2 }' go.mod)
ESBUILD=$PEERS/npm/node_modules/.bin/esbuild
install_esbuild() {
  if [ -x "$ESBUILD" ] && [ "$("$ESBUILD" --version)" = "$ESBUILD_VERSION" ]; then return; fi
  log "installing esbuild@$ESBUILD_VERSION (npm)"
  npm install --prefix "$PEERS/npm" --no-audit --no-fund --silent "esbuild@$ESBUILD_VERSION" >/dev/null
  [ "$("$ESBUILD" --version)" = "$ESBUILD_VERSION" ]
}

# Real sources and peers of sections h-q, from npm at pinned versions.
NPM_PEERS=(rxjs@7.8.2 three@0.187.0 bootstrap@5.3.9 bulma@1.0.4 bootstrap-icons@1.13.2)
VITE_PEERS=(vite@8.4.0 vite-plugin-compression2@2.5.3)
# Section r: a React app, and Vite's React plugin (6.x is the line for Vite 8).
LAZY_PEERS=(react@19.3.1 react-dom@19.3.1 @vitejs/plugin-react@6.3.1)
NM=$PEERS/npm/node_modules
install_npm_peers() {
  local want_pkgs=("${NPM_PEERS[@]}") p missing=()
  want vite && want_pkgs+=("${VITE_PEERS[@]}")
  want lazy && want_pkgs+=("${VITE_PEERS[@]}" "${LAZY_PEERS[@]}")
  for p in "${want_pkgs[@]}"; do
    [ "$(jq -r .version "$NM/${p%@*}/package.json" 2>/dev/null)" = "${p##*@}" ] || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return
  log "installing ${missing[*]} (npm)"
  npm install --prefix "$PEERS/npm" --no-audit --no-fund --silent "esbuild@$ESBUILD_VERSION" "${missing[@]}" >/dev/null
}

STATIGZ_VERSION=v1.4.0
STATIGZ_MOD=$PEERS/statigz-$STATIGZ_VERSION
install_statigz() {
  [ -f "$STATIGZ_MOD/go.sum" ] && return
  # statigz serves an embed.FS with its .br and .gz sidecars; a program
  # of its own, in a module of its own, embeds the directory it is built
  # with, so it is built per tree (see section o).
  log "fetching statigz $STATIGZ_VERSION (Go module)"
  local mod=$STATIGZ_MOD
  mkdir -p "$mod/site"
  cat >"$mod/main.go" <<'EOF'
// Command statigz-server serves site/ with statigz and its brotli encoding,
// which sends the precompressed .br and .gz sidecars:
// statigz-server ADDR TIMEOUT.
package main

import (
	"embed"
	"io/fs"
	"log"
	"net/http"
	"os"
	"time"

	"github.com/vearutop/statigz"
	"github.com/vearutop/statigz/brotli"
)

//go:embed site
var site embed.FS

func main() {
	if len(os.Args) != 3 {
		log.Fatal("usage: statigz-server ADDR TIMEOUT")
	}
	d, err := time.ParseDuration(os.Args[2])
	if err != nil {
		log.Fatal(err)
	}
	sub, err := fs.Sub(site, "site")
	if err != nil {
		log.Fatal(err)
	}
	time.AfterFunc(d, func() { os.Exit(0) })
	log.Fatal(http.ListenAndServe(os.Args[1], statigz.FileServer(sub.(fs.ReadDirFS), brotli.AddEncoding)))
}
EOF
  echo . >"$mod/site/keep.txt"
  (cd "$mod" && printf 'module statigzserver\n\ngo 1.26\n' >go.mod &&
    go get "github.com/vearutop/statigz@$STATIGZ_VERSION" >/dev/null 2>&1 && go mod tidy >/dev/null 2>&1)
}

GO_BINDATA_VERSION=v3.1.3
VFSGEN_VERSION=v0.0.0-20230704071429-0000e147ea92
GO_BINDATA=$PEERS/bin/go-bindata
VFSGEN=$PEERS/bin/vfsgen-gen
install_go_peers() {
  if [ ! -x "$GO_BINDATA" ]; then
    log "installing go-bindata $GO_BINDATA_VERSION (Go module)"
    # go install module@version would look the module's deprecation up
    # in its latest version, which the proxy does not list: a module of
    # its own pins it instead.
    local mod=$WORK/go-bindata
    mkdir -p "$mod"
    (cd "$mod" && printf 'module gobindatatool\n\ngo 1.26\n' >go.mod &&
      go get "github.com/go-bindata/go-bindata/v3@$GO_BINDATA_VERSION" >/dev/null 2>&1 &&
      go build -o "$GO_BINDATA" github.com/go-bindata/go-bindata/v3/go-bindata)
  fi
  if [ ! -x "$VFSGEN" ]; then
    # vfsgen is a library: a five-line program in a module of its own
    # calls it, so that this module's go.mod never names it.
    log "installing vfsgen $VFSGEN_VERSION (Go module)"
    local mod=$WORK/vfsgen-gen
    mkdir -p "$mod"
    cat >"$mod/main.go" <<'EOF'
// Command vfsgen-gen writes DIR as a vfsgen package: vfsgen-gen DIR FILE PACKAGE.
package main

import (
	"log"
	"net/http"
	"os"

	"github.com/shurcooL/vfsgen"
)

func main() {
	if len(os.Args) != 4 {
		log.Fatal("usage: vfsgen-gen DIR FILE PACKAGE")
	}
	err := vfsgen.Generate(http.Dir(os.Args[1]), vfsgen.Options{Filename: os.Args[2], PackageName: os.Args[3], VariableName: "Assets"})
	if err != nil {
		log.Fatal(err)
	}
}
EOF
    (cd "$mod" && printf 'module vfsgengen\n\ngo 1.26\n' >go.mod &&
      go get "github.com/shurcooL/vfsgen@$VFSGEN_VERSION" >/dev/null 2>&1 &&
      go build -o "$VFSGEN" .)
  fi
}

# --------------------------------------------------------------- set-up --

log "work dir $WORK"
mkdir -p "$PEERS" "$WORK/bin"
install_debian
want bundle && install_esbuild
want compile && install_go_peers
for s in "${GOALS[@]}" lazy; do want "$s" && { install_esbuild; install_npm_peers; break; }; done
want css && install_statigz

log "building bakefs, the generator and the measuring tool"
if [ -n "${BENCH_BAKEFS:-}" ]; then
  cp "$BENCH_BAKEFS" "$WORK/bin/bakefs"
else
  go build -trimpath -o "$WORK/bin/bakefs" ./cmd/bakefs
fi
go build -o "$WORK/bin/gen" ./bench/gen
go build -o "$WORK/bin/sidebyside" ./bench/sidebyside/cmd/sidebyside
want images && go build -o "$WORK/bin/imgq" ./bench/imgq
BAKEFS=$WORK/bin/bakefs
SBS=$WORK/bin/sidebyside

cat >"$RESULTS" <<EOF
## Results of bench/run.sh — $(date -u '+%Y-%m-%d %H:%M UTC')

Machine: $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo), load average at start $(cut -d' ' -f1-3 /proc/loadavg); $(go version | cut -d' ' -f3); esbuild $ESBUILD_VERSION; $(hugo version 2>/dev/null | cut -d' ' -f1-2); $(wrk --version 2>&1 | head -1 | cut -d' ' -f1-2); $(hyperfine --version).
Ratios compare commands run in alternation in the same rounds; below 1× means faster than the first row.

EOF

# The synthetic tree of 1,000 files, generated once and copied per section.
SYNTH=$WORK/synth1000
"$WORK/bin/gen" -out "$SYNTH" -files 1000 >"$WORK/synth1000.txt"
log "synthetic tree: $(cat "$WORK/synth1000.txt")"
WARM=$WORK/synth1000-warm
warm_tree() {
  if [ ! -d "$WARM" ]; then
    log "building the synthetic tree once (cold, release profile)"
    cp -a "$SYNTH" "$WARM"
    "$BAKEFS" build -f "$WARM/bakefs.toml" 2>>"$WORK/build.log"
  fi
}
# The built tree is used in place, never copied: cache entries name the
# files a bundle read by absolute path, so a copy would check the
# original's imports.

# ----------------------------------------------------------------- cold --

if want cold; then
  log "cold builds"
  out "### a. Cold pipeline: \`bakefs build\` with an empty cache" ""
  out "Synthetic tree: $(cat "$WORK/synth1000.txt")" ""
  cold=$WORK/cold
  cp -a "$SYNTH" "$cold"
  args=(-rounds 3 -warmup 0 -md "$RESULTS"
    -prepare "synth1000-cold=rm -rf $cold/build $cold/.bakefs-cache")
  cmds=("synth1000-cold=$BAKEFS build -f $cold/bakefs.toml" "synth1000-warm=$BAKEFS build -f $cold/bakefs.toml")
  if [ -f examples/webapp/bakefs.toml ]; then
    # A copy, so that the checkout's build, cache and package stay as
    # they are; the copy keeps the example's relative paths.
    webapp=$WORK/webapp
    cp -a examples/webapp "$webapp"
    wout=$(sed -n 's/^out *= *"\(.*\)".*/\1/p' "$webapp/bakefs.toml")
    wcache=$(sed -n 's/^cache *= *"\(.*\)".*/\1/p' "$webapp/bakefs.toml")
    wpkg=$(awk '/^\[package\]/ { p = 1 } p && /^dir *=/ { gsub(/.*= *"|".*/, ""); print; exit }' "$webapp/bakefs.toml")
    wclean="rm -rf $webapp/${wout:?} $webapp/${wcache:-.bakefs-cache}"
    [ -n "$wpkg" ] && wclean="$wclean $webapp/$wpkg"
    args+=(-prepare "webapp-cold=$wclean")
    cmds+=("webapp-cold=$BAKEFS build -f $webapp/bakefs.toml" "webapp-warm=$BAKEFS build -f $webapp/bakefs.toml")
  else
    out "examples/webapp/bakefs.toml does not exist yet: only the synthetic tree is measured." ""
  fi
  "$SBS" -title "Cold and warm builds (release profile: br 11, gzip 9)" "${args[@]}" "${cmds[@]}" >/dev/null
fi

# --------------------------------------------------------------- bundle --

if want bundle; then
  log "bundle + minify vs the esbuild CLI"
  out "### b. Bundle + minify one TypeScript entry: bakefs transform vs the esbuild CLI" ""
  b=$WORK/bundle
  mkdir -p "$b"
  web=$SYNTH/web
  for entry in all entry-00; do
    bo=$b/$entry
    mkdir -p "$bo"
    "$SBS" -rounds "$((ROUNDS * 2))" -warmup 1 -md "$RESULTS" \
      -title "ts/$entry.ts ($(bytes "$web/ts/$entry.ts") B entry)" \
      -prepare "esbuild-cli=rm -rf $bo/esbuild" \
      -prepare "bakefs-bundle+minify=rm -rf $bo/bakefs" \
      -prepare "bakefs-bundle-minify-option=rm -rf $bo/bakefs-one" \
      "esbuild-cli=$ESBUILD $web/ts/$entry.ts --bundle --format=esm --target=es2020 --minify --log-level=warning --outfile=$bo/esbuild/$entry.js" \
      "bakefs-bundle+minify=$BAKEFS transform --no-cache --root $web --out $bo/bakefs --step bundle:format=esm --step minify $web/ts/$entry.ts" \
      "bakefs-bundle-minify-option=$BAKEFS transform --no-cache --root $web --out $bo/bakefs-one --step bundle:format=esm,minify=true $web/ts/$entry.ts" \
      >/dev/null
    out "Output: esbuild CLI $(bytes "$bo/esbuild/$entry.js") B, bakefs bundle+minify $(bytes "$bo/bakefs/ts/$entry.js") B, bakefs bundle:minify=true $(bytes "$bo/bakefs-one/ts/$entry.js") B." ""
  done
fi

# --------------------------------------------------------------- minify --

if want minify; then
  log "minify vs Hugo"
  out "### b'. Minify CSS, JSON, SVG and HTML: bakefs transform vs Hugo's resources.Minify" ""
  m=$WORK/minify
  mkdir -p "$m/site/assets" "$m/site/layouts" "$m/copy/layouts"
  web=$SYNTH/web
  (cd "$web" && cp -r css data img pages "$m/site/assets/")
  (cd "$web" && find css data img pages -type f | sort) >"$m/files.txt"
  nfiles=$(wc -l <"$m/files.txt")
  # bakefs: one transform over every file (the minify step, and the same
  # run with no step, which copies: the fixed cost of reading and writing).
  for v in minify copy; do
    steps=
    [ $v = minify ] && steps="--step minify"
    {
      echo "#!/usr/bin/env bash"
      echo "cd $web && exec $BAKEFS transform --no-cache --root . --out $m/bakefs-$v $steps \\"
      sed 's/$/ \\/' "$m/files.txt"
      echo
    } >"$m/bakefs-$v.sh"
  done
  # Hugo: a site whose assets are the same files; the home page runs
  # resources.Minify on each and publishes the result. The "copy" site
  # publishes them unchanged: Hugo's fixed cost.
  printf 'baseURL = "http://localhost/"\ndisableKinds = ["taxonomy", "term", "RSS", "sitemap", "robotsTXT", "404", "section", "page"]\n' >"$m/site/config.toml"
  cp "$m/site/config.toml" "$m/copy/config.toml"
  ln -s "$m/site/assets" "$m/copy/assets"
  echo '{{ range resources.Match "**" }}{{ with . | resources.Minify }}{{ .RelPermalink }}{{ end }} {{ end }}' >"$m/site/layouts/index.html"
  echo '{{ range resources.Match "**" }}{{ .RelPermalink }} {{ end }}' >"$m/copy/layouts/index.html"
  hugo_cmd() { echo "hugo --quiet --source $1 --destination $2 --ignoreCache --noBuildLock --cacheDir $1/cache"; }
  "$SBS" -rounds "$ROUNDS" -warmup 1 \
    -title "$nfiles files, $(cd "$web" && bytes $(cat "$m/files.txt")) B" \
    -prepare "bakefs-minify=rm -rf $m/bakefs-minify" \
    -prepare "bakefs-minify-1cpu=rm -rf $m/bakefs-minify" \
    -prepare "bakefs-copy=rm -rf $m/bakefs-copy" \
    -prepare "hugo-minify=rm -rf $m/hugo-minify $m/site/cache $m/site/resources" \
    -prepare "hugo-copy=rm -rf $m/hugo-copy $m/copy/cache $m/copy/resources" \
    "bakefs-minify=bash $m/bakefs-minify.sh" \
    "bakefs-minify-1cpu=GOMAXPROCS=1 bash $m/bakefs-minify.sh" \
    "bakefs-copy=bash $m/bakefs-copy.sh" \
    "hugo-minify=$(hugo_cmd "$m/site" "$m/hugo-minify")" \
    "hugo-copy=$(hugo_cmd "$m/copy" "$m/hugo-copy")" \
    >"$m/table.md"
  # Fixed costs subtracted: minify work alone (medians).
  med() { awk -F'|' -v n="$1" '$2 ~ "^ "n" $" { split($3, a, " "); v = a[1]; if (a[2] == "s") v *= 1000; print v }' "$m/table.md"; }
  bm=$(med bakefs-minify) bc=$(med bakefs-copy) hm=$(med hugo-minify) hc=$(med hugo-copy)
  ratio=$(awk -v bm="$bm" -v bc="$bc" -v hm="$hm" -v hc="$hc" 'BEGIN {
    if (bm <= bc || hm <= hc) print "not measurable (a copy run was slower than its minify run: noise)"
    else printf "%.2f×\n", (hm - hc) / (bm - bc) }')
  cat "$m/table.md" >>"$RESULTS"
  out ""
  ob=$(treebytes "$m/bakefs-minify")
  oh=$(treebytes "$m/hugo-minify")
  out "Minify work alone (median minus the copy run of the same tool): bakefs $(awk -v a="$bm" -v b="$bc" 'BEGIN { printf "%.0f", a - b }') ms, Hugo $(awk -v a="$hm" -v b="$hc" 'BEGIN { printf "%.0f", a - b }') ms: Hugo/bakefs = ${ratio}." \
    "Output: bakefs $ob B, Hugo $oh B (bakefs minifies CSS with esbuild, Hugo with tdewolff/minify; HTML, SVG and JSON both with tdewolff/minify, Hugo's an older version)." ""
fi

# ----------------------------------------------------------------- warm --

if want warm; then
  log "warm no-change build"
  out "### c. Warm no-change \`bakefs build\` on 1,000 files (target < 50 ms)" ""
  warm_tree
  w=$WARM
  hyperfine -N --style basic --warmup 3 --runs "$((ROUNDS * 6))" --export-json "$WORK/warm.json" \
    "$BAKEFS build -f $w/bakefs.toml" >"$WORK/warm-hyperfine.txt" 2>&1
  jq -r '.results[0] | "hyperfine, \(.times | length) runs after 3 warm-up runs: mean \(.mean * 1000 | . * 10 | round / 10) ms ± \(.stddev * 1000 | . * 10 | round / 10) ms (σ), median \(.median * 1000 | . * 10 | round / 10) ms, min \(.min * 1000 | . * 10 | round / 10) ms, max \(.max * 1000 | . * 10 | round / 10) ms; user \(.user * 1000 | round) ms, system \(.system * 1000 | round) ms."' "$WORK/warm.json" >>"$RESULTS"
  out "" "Command: \`hyperfine -N --warmup 3 --runs $((ROUNDS * 6)) 'bakefs build -f synth1000/bakefs.toml'\`" ""
  rsync -a "$w/web/" "$WORK/warm-rsync/"
  "$SBS" -rounds "$((ROUNDS * 2))" -warmup 2 -md "$RESULTS" \
    -title "Floor references: copying the same source tree" \
    -prepare "cp-r=rm -rf $WORK/warm-cp" \
    "bakefs-warm=$BAKEFS build -f $w/bakefs.toml" \
    "rsync-nochange=rsync -a $w/web/ $WORK/warm-rsync/" \
    "cp-r=cp -r $w/web $WORK/warm-cp" >/dev/null
fi

# --------------------------------------------------------------- change --

if want change; then
  log "one file changed"
  out "### d. One file changed, 1,000 files" ""
  warm_tree
  c=$WARM
  # bump FILE: append a line never seen before, so the cache cannot answer.
  cat >"$WORK/bump.sh" <<'EOF'
#!/usr/bin/env bash
set -euo pipefail
n=$(cat "$1.n" 2>/dev/null || echo 0); n=$((n + 1)); echo "$n" >"$1.n"
case $1 in
*.css) printf '\n.bench-%d { order: %d; }\n' "$n" "$n" >>"$1" ;;
*.ts) printf '\nexport const bench%d = %d;\n' "$n" "$n" >>"$1" ;;
esac
EOF
  "$SBS" -rounds 3 -warmup 1 -md "$RESULTS" \
    -title "Rebuild after one change (release profile)" \
    -prepare "css-changed=bash $WORK/bump.sh $c/web/css/00/c0000.css" \
    -prepare "ts-module-changed=bash $WORK/bump.sh $c/web/ts/g00/m0000.ts" \
    "no-change=$BAKEFS build -f $c/bakefs.toml" \
    "css-changed=$BAKEFS build -f $c/bakefs.toml" \
    "ts-module-changed=$BAKEFS build -f $c/bakefs.toml" >/dev/null
  out "css-changed re-minifies and recompresses one style sheet; ts-module-changed re-runs two bundles (its group's entry and all.ts, $(bytes "$c/build/ts/all.js") B minified) with Brotli 11 and gzip 9." ""
fi

# ---------------------------------------------------------------- serve --

if want serve; then
  log "handler throughput"
  out "### e. Serving a ~400 KB script: bakefs handler (precompressed br) vs http.FileServer(http.FS(embed.FS))" ""
  e=$WORK/serve
  "$WORK/bin/gen" -out "$e/src" -files 620 >/dev/null
  # A copy of bench/server in a module of its own that requires this one,
  # with the tree in its site/ directory: the checkout is left as it is.
  mkdir -p "$e/srv/site"
  cp bench/server/main.go bench/server/handlers.go "$e/srv/"
  cp bench/server/site/README.md "$e/srv/site/"
  runtime_module benchserver "$e/srv"
  "$BAKEFS" transform --no-cache --root "$e/src/web" --out "$e/srv/site/tree" \
    --step bundle:format=esm --step minify --compress br,gzip \
    --file "js/app.ts=$e/src/web/ts/all.ts" 2>>"$WORK/build.log"
  (cd "$e/srv" && GOFLAGS=-mod=mod go build -o "$WORK/bin/server" .)
  port=$((20000 + RANDOM % 20000))
  "$WORK/bin/server" -bakefs "127.0.0.1:$port" -plain "127.0.0.1:$((port + 1))" -file js/app.js -timeout 5m >"$e/ready" 2>"$e/server.log" &
  SERVER_PID=$!
  for _ in $(seq 100); do grep -q '^ready' "$e/ready" && break; sleep 0.1; done
  grep -q '^ready' "$e/ready" || { cat "$e/server.log" >&2; exit 1; }
  read -r _ bakefs_url plain_url size br gz < <(sed 's/[a-z]*=//g' "$e/ready")
  # Check what each side sends before measuring it.
  curl -fsS -o /dev/null -H 'Accept-Encoding: br, gzip' -w '%{size_download}' "$bakefs_url" >"$e/check-bakefs"
  curl -fsS -o /dev/null -H 'Accept-Encoding: br, gzip' -w '%{size_download}' "$plain_url" >"$e/check-plain"
  [ "$(cat "$e/check-bakefs")" = "$br" ] && [ "$(cat "$e/check-plain")" = "$size" ]
  out "js/app.js: $size B, br $br B, gzip $gz B (synthetic code compresses $(awk -v a="$size" -v b="$br" 'BEGIN { printf "%.1f", a / b }')× with Brotli; real minified code compresses about 3–5×, which narrows the gap)." ""
  out "| run | server | requests/s | transfer/s | socket errors |" "|---|---|---:|---:|---|"
  run=0
  for round in 1 2; do
    for side in bakefs plain; do
      url=$bakefs_url
      [ $side = plain ] && url=$plain_url
      run=$((run + 1))
      timeout 30 wrk -t1 -c16 -d10s --timeout 5s -H 'Accept-Encoding: br, gzip' "$url" >"$e/wrk-$side-$round.txt"
      rps=$(awk '/^Requests\/sec:/ { print $2 }' "$e/wrk-$side-$round.txt")
      tps=$(awk '/^Transfer\/sec:/ { print $2 }' "$e/wrk-$side-$round.txt")
      if grep -q Non-2xx "$e/wrk-$side-$round.txt"; then cat "$e/wrk-$side-$round.txt" >&2; exit 1; fi
      # wrk counts the requests still open when it stops as timeouts.
      errs=$(awk -F': ' '/Socket errors/ { print $2 }' "$e/wrk-$side-$round.txt")
      echo "$side $rps" >>"$e/rps.txt"
      out "| $run | $side | $rps | $tps | ${errs:-none} |"
    done
  done
  kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true; SERVER_PID=
  ratio=$(awk '$1 == "bakefs" { b += $2; nb++ } $1 == "plain" { p += $2; np++ } END { printf "%.2f", (b / nb) / (p / np) }' "$e/rps.txt")
  out "" "Requests/s, bakefs / http.FileServer: **${ratio}×** (mean of two alternating runs each; goal ≥ 3×)." \
    "Command: \`wrk -t1 -c16 -d10s -H 'Accept-Encoding: br, gzip' URL\`, loopback, server and wrk on the same $(nproc) cores." ""
fi

# -------------------------------------------------------------- compile --

if want compile; then
  log "embed compile cost"
  out "### f. Compile cost of embedding ~5 MB in 750 files" ""
  f=$WORK/compile
  "$WORK/bin/gen" -out "$f/src" -files 750 -size 6800 >/dev/null
  # One tree for every tool: the 750 files as they are (a transform with
  # no step), plus the manifest that bakefs embed needs.
  (cd "$f/src/web" && find . -type f | sed 's|^\./||' | sort >"$f/files.txt")
  (cd "$f/src/web" && xargs "$BAKEFS" transform --no-cache --root . --out "$f/tree" <"$f/files.txt") 2>>"$WORK/build.log"
  mod=$f/mod
  mkdir -p "$mod"
  runtime_module benchembed "$mod"
  "$BAKEFS" embed --tree "$f/tree" --out "$mod/bakefsassets" --package bakefsassets
  mkdir -p "$mod/embedassets" "$mod/bindataassets" "$mod/vfsgenassets"
  cp -r "$f/tree" "$mod/embedassets/tree"
  printf 'package embedassets\n\nimport "embed"\n\n//go:embed all:tree\nvar Assets embed.FS\n' >"$mod/embedassets/embed.go"
  "$GO_BINDATA" -pkg bindataassets -o "$mod/bindataassets/bindata.go" -prefix "$f/tree" "$f/tree/..."
  "$VFSGEN" "$f/tree" "$mod/vfsgenassets/vfsgen.go" vfsgenassets
  # One command per tool, each reading one file so that the linker keeps
  # the data.
  file=$(sed -n 1p "$f/files.txt")
  mkcmd() {
    mkdir -p "$mod/cmd/$1"
    printf 'package main\n\nimport (\n\t"fmt"\n%s\n\t"%s"\n)\n\nfunc main() {\n\t%s\n}\n' "$2" "benchembed/$1" "$3" >"$mod/cmd/$1/main.go"
  }
  mkcmd bakefsassets '' "b, err := bakefsassets.FS.ReadFile(\"$file\")
	fmt.Println(len(b), err)"
  mkcmd embedassets '' "b, err := embedassets.Assets.ReadFile(\"tree/$file\")
	fmt.Println(len(b), err)"
  mkcmd bindataassets '' "b, err := bindataassets.Asset(\"$file\")
	fmt.Println(len(b), err)"
  mkcmd vfsgenassets '	"io"' "f, err := vfsgenassets.Assets.Open(\"/$file\")
	if err != nil {
		panic(err)
	}
	b, err := io.ReadAll(f)
	fmt.Println(len(b), err)"
  for p in bakefsassets embedassets bindataassets vfsgenassets; do
    (cd "$mod" && GOFLAGS=-mod=mod go build -o "$f/$p.bin" "./cmd/$p" && "$f/$p.bin" | grep -q ' <nil>$') || { log "$p does not build or run"; exit 1; }
  done
  # Each run compiles the asset package again (a new constant in it) and
  # links the command; the standard library stays in the shared cache.
  export GOCACHE=$f/gocache
  # nonce.sh DIR: a constant never seen before in the package at DIR.
  cat >"$WORK/nonce.sh" <<'EOF'
#!/usr/bin/env bash
printf 'package %s\n\nconst nonce = %s\n' "$(basename "$1")" "$(date +%s%N)" >"$1/zz_nonce.go"
EOF
  args=(-prepare "bakefs=bash $WORK/nonce.sh $mod/bakefsassets"
    -prepare "go:embed=bash $WORK/nonce.sh $mod/embedassets"
    -prepare "go-bindata=bash $WORK/nonce.sh $mod/bindataassets"
    -prepare "vfsgen=bash $WORK/nonce.sh $mod/vfsgenassets")
  (cd "$mod" && "$SBS" -rounds "$ROUNDS" -warmup 1 -md "$RESULTS" \
    -title "go build after the embedded tree changed ($(wc -l <"$f/files.txt") files, $(cd "$f/tree" && bytes $(cat "$f/files.txt")) B)" \
    "${args[@]}" \
    "bakefs=GOFLAGS=-mod=mod go build -o $f/out-bakefs ./cmd/bakefsassets" \
    "go:embed=GOFLAGS=-mod=mod go build -o $f/out-embed ./cmd/embedassets" \
    "go-bindata=GOFLAGS=-mod=mod go build -o $f/out-bindata ./cmd/bindataassets" \
    "vfsgen=GOFLAGS=-mod=mod go build -o $f/out-vfsgen ./cmd/vfsgenassets" >/dev/null)
  unset GOCACHE
  out "Generated Go source: bakefs $(bytes "$mod"/bakefsassets/*.go) B (data in $(find "$mod/bakefsassets" -type f ! -name '*.go' | wc -l) embedded files), go-bindata $(bytes "$mod/bindataassets/bindata.go") B (gzip in string literals), vfsgen $(bytes "$mod/vfsgenassets/vfsgen.go") B (gzip in string literals)." \
    "Binary: bakefs $(bytes "$f/out-bakefs") B, go:embed $(bytes "$f/out-embed") B, go-bindata $(bytes "$f/out-bindata") B, vfsgen $(bytes "$f/out-vfsgen") B." \
    "Peers: go-bindata $GO_BINDATA_VERSION, vfsgen $VFSGEN_VERSION; peak RSS is that of go build and the compiler and linker it waits for." ""
  if [ -f bench/compile/main.go ]; then
    log "bench/compile"
    out "#### bench/compile (generated package vs hand-written //go:embed)" ""
    if go run ./bench/compile -sizes 750:5 -runs 3 >"$f/compile.txt" 2>&1; then
      out '```' "$(cat "$f/compile.txt")" '```' ""
    else
      out "bench/compile failed: $(tail -3 "$f/compile.txt")" ""
    fi
  fi
fi

# --------------------------------------------------------------- images --

if want images; then
  log "WebP and AVIF vs cwebp and avifenc"
  out "### g. WebP and AVIF: bakefs (libwebp, libavif in WebAssembly) vs Debian's cwebp and avifenc" ""
  g=$WORK/images
  mkdir -p "$g"
  IMGQ=$WORK/bin/imgq
  # The source: the example's photo at 960×640, as a PNG that every tool
  # reads the same way.
  "$BAKEFS" transform --no-cache --root examples/webapp/web/static/img --out "$g/src" \
    --step resize:width=960 --step format:to=png examples/webapp/web/static/img/lake.jpg 2>>"$WORK/build.log"
  src=$g/src/lake.png
  # One quality setting means the same to both sides: cwebp -q is libwebp's
  # quality, method 4 as bakefs; avifenc 0.11 (Debian) has no quality flag,
  # so it gets the quantizer that libavif 1.x derives from a quality,
  # ((100 - q) * 63 + 50) / 100, as minimum and maximum, at bakefs's speed
  # 8, 4:2:0, 8 bits, one thread.
  : >"$g/points.txt"
  bk() { "$BAKEFS" transform --no-cache --root "$g/src" --out "$g/$1" --step "$2" "$src" 2>>"$WORK/build.log"; }
  # The peers also encode one setting below and one above bakefs's, so
  # that their curve spans bakefs's qualities.
  for q in 40 50 75 90 95; do
    cwebp -quiet -q "$q" -m 4 -metadata none "$src" -o "$g/cwebp-$q.webp"
    "$IMGQ" -ref "$src" "$g/cwebp-$q.webp" | awk -v q="$q" '{ print "webp cwebp q" q, $2, $4, $3 }' >>"$g/points.txt"
    case $q in 40 | 95) continue ;; esac
    bk "bakefs-webp-$q" "format:to=webp,quality=$q"
    "$IMGQ" -ref "$src" "$g/bakefs-webp-$q/lake.webp" | awk -v q="$q" '{ print "webp bakefs q" q, $2, $4, $3 }' >>"$g/points.txt"
  done
  for q in 30 40 60 80 90; do
    qz=$(((100 - q) * 63 / 100 + ((100 - q) * 63 % 100 >= 50 ? 1 : 0)))
    avifenc -j 1 -s 8 -y 420 -d 8 --min "$qz" --max "$qz" --minalpha "$qz" --maxalpha "$qz" "$src" "$g/avifenc-$q.avif" >/dev/null
    "$IMGQ" -ref "$src" "$g/avifenc-$q.avif" | awk -v q="$q" -v qz="$qz" '{ print "avif avifenc q" q "(quantizer" qz ")", $2, $4, $3 }' >>"$g/points.txt"
    case $q in 30 | 90) continue ;; esac
    bk "bakefs-avif-$q" "format:to=avif,quality=$q"
    "$IMGQ" -ref "$src" "$g/bakefs-avif-$q/lake.avif" | awk -v q="$q" '{ print "avif bakefs q" q, $2, $4, $3 }' >>"$g/points.txt"
  done
  out "Source: examples/webapp/web/static/img/lake.jpg at 960×640, as PNG ($(bytes "$src") B). Quality against the source: PSNR over RGB, SSIM of the luma over 8×8 windows (bench/imgq)." ""
  out "| format | tool | setting | bytes | SSIM | PSNR dB |" "|---|---|---|---:|---:|---:|"
  awk '{ print "| " $1 " | " $2 " | " $3 " | " $4 " | " $5 " | " $6 " |" }' "$g/points.txt" >>"$RESULTS"
  out "" "Size at equal quality (the peer's size interpolated at bakefs's SSIM along the peer's curve; below 1× means bakefs is smaller):" ""
  # The peer's encodes first: the first tool of a group is the reference.
  { awk '$2 != "bakefs" { print $1, $2, $3, $4, $5 }' "$g/points.txt"
    awk '$2 == "bakefs" { print $1, $2, $3, $4, $5 }' "$g/points.txt"; } >"$g/equal.txt"
  "$IMGQ" -equal "$g/equal.txt" | sed 's/^/- /' >>"$RESULTS"
  out ""
  "$SBS" -rounds "$ROUNDS" -warmup 1 -md "$RESULTS" \
    -title "Encode the 960×640 PNG as WebP, quality 75 (one process per encode: bakefs compiles the WebAssembly module each time)" \
    "cwebp=cwebp -quiet -q 75 -m 4 -metadata none $src -o $g/t-cwebp.webp" \
    "bakefs-webp=$BAKEFS transform --no-cache --root $g/src --out $g/t-webp --step format:to=webp $src" >/dev/null
  "$SBS" -rounds "$ROUNDS" -warmup 1 -md "$RESULTS" \
    -title "Encode the 960×640 PNG as AVIF, quality 60, speed 8 (one process per encode, as above)" \
    "avifenc=avifenc -j 1 -s 8 -y 420 -d 8 --min 25 --max 25 --minalpha 25 --maxalpha 25 $src $g/t-avifenc.avif" \
    "bakefs-avif=$BAKEFS transform --no-cache --root $g/src --out $g/t-avif --step format:to=avif $src" >/dev/null
  out "In one process (\`imgq -cost\`: the format step four times on the same PNG; the first run compiles the module):" "" '```' "$("$IMGQ" -cost "$src")" '```'
  out "Peers: $(cwebp -version | head -1 | sed 's/^/cwebp /'), $(avifenc --version 2>&1 | head -1 | sed 's/^Version: /avifenc /')." ""
fi

# ------------------------------------------------- goals of issue 11 --

# cell NAME COLUMN FILE: one cell of a sidebyside table (2 median, 4 ratio,
# 5 peak RSS), trimmed.
cell() { awk -F'|' -v n=" $1 " -v c="$(($2 + 1))" '$2 == n { gsub(/^ +| +$/, "", $c); print $c; exit }' "$3"; }
# goal TEXT: a line of the goals table printed at the end; TEXT ends with
# the "met" cell, which met gives.
goal() { printf '%s\n' "$*" >>"$WORK/goals.md"; }
# num TEXT: the first number in TEXT ("1.18× (0.84 … 1.30)" gives 1.18).
num() { printf '%s' "$1" | grep -oE '[0-9]+(\.[0-9]+)?' | head -1; }
# met CONDITION: "yes" or "no" for an awk condition on numbers, "—" when a
# number is missing.
met() {
  case $1 in *"  "* | " "* | *" ") echo "—"; return ;; esac
  if awk "BEGIN { exit !($1) }"; then echo yes; else echo no; fi
}
: >"$WORK/goals.md"
# profile TITLE RUNS CMD...: runs the bakefs command CMD RUNS times with
# BAKEFS_CPUPROFILE and BAKEFS_MEMPROFILE set, and writes the top lines of
# the merged CPU profile and of the allocations (alloc_space) to the
# results, so that a goal not met comes with where the time and memory go.
profile() {
  local title=$1 runs=$2 dir i
  shift 2
  dir=$(mktemp -d "$WORK/prof.XXXXXX")
  for i in $(seq "$runs"); do
    BAKEFS_CPUPROFILE=$dir/cpu$i.pprof BAKEFS_MEMPROFILE=$dir/mem$i.pprof "$@" >/dev/null 2>>"$WORK/build.log"
  done
  pprof_top "$title: CPU, $runs run(s)" "$dir"/cpu*.pprof
  pprof_top "$title: allocations (alloc_space), $runs run(s)" -sample_index=alloc_space "$dir"/mem*.pprof
}
# pprof_top TITLE [PPROF FLAGS] PROFILE...: the top 12 lines of go tool
# pprof -top, in a fenced block of the results.
pprof_top() {
  local title=$1
  shift
  out "Profile, $title (\`go tool pprof -top\`):" "" '```' \
    "$(go tool pprof -top -nodecount=12 "$@" 2>/dev/null | sed -n '/^Showing nodes/,$p')" '```' ""
}

# The real mixed tree (sections j, l, m, n): Sphinx's own HTML manual
# (Debian sphinx-doc, 310 files: HTML, text sources, PNG, JS, CSS), three.js
# builds, Bootstrap's and Bulma's CSS and JS, Bootstrap Icons' font and CSS
# and its first 840 SVG icons by name, and four Lato TrueType fonts (Debian
# fonts-lato): 1,201 files, about 25 MB. It lives in a module of its own so
# that its [package] can be imported (section m).
REAL=$WORK/real
real_tree() {
  [ -d "$REAL/web" ] && return
  log "assembling the real mixed tree"
  local w=$REAL/web
  mkdir -p "$w/docs" "$w/vendor/three" "$w/vendor/bootstrap" "$w/vendor/bulma" "$w/icons" "$w/fonts/lato"
  cp -rL /usr/share/doc/sphinx-doc/html/. "$w/docs/"
  cp "$NM"/three/build/*.js "$w/vendor/three/"
  cp "$NM"/bootstrap/dist/css/*.css "$NM"/bootstrap/dist/js/*.js "$w/vendor/bootstrap/"
  cp "$NM"/bulma/css/*.css "$w/vendor/bulma/"
  cp "$NM"/bootstrap-icons/font/bootstrap-icons*.css "$NM"/bootstrap-icons/font/fonts/* "$w/fonts/"
  # The first 840 names, without a pipe that head closes early (SIGPIPE
  # under pipefail).
  (cd "$NM/bootstrap-icons/icons" && mapfile -t icons < <(LC_ALL=C ls) && cp -t "$w/icons/" "${icons[@]:0:840}")
  cp /usr/share/fonts/truetype/lato/Lato-{Regular,Bold,Italic,BoldItalic}.ttf "$w/fonts/lato/"
  runtime_module benchreal "$REAL"
  cat >"$REAL/bakefs.toml" <<'EOF'
# The real mixed tree of bench/run.sh (sections j, l, m, n).
src   = "web"
out   = "build"
cache = ".bakefs-cache"
compress = ["br", "gzip", "zstd"]

[package]
dir    = "pkg/assets"
name   = "assets"
import = "benchreal/pkg/assets"

[[rule]]
match = ["**/*.html", "**/*.css", "**/*.svg", "**/*.js"]
steps = ["minify"]

[[rule]]
match = "**"
steps = []
EOF
  echo "$(find "$w" -type f | wc -l) files, $(du -sb "$w" | cut -f1) B ($(cd "$w" && find . -type f | sed -n 's/.*\.\([A-Za-z0-9]*\)$/\1/p' | sort | uniq -c | sort -rn | head -8 | awk '{ printf "%s%s %s", (NR > 1 ? ", " : ""), $2, $1 }'))" >"$REAL.txt"
}
real_built() {
  real_tree
  if [ ! -d "$REAL/build" ]; then
    log "building the real tree once (cold, release profile)"
    "$BAKEFS" build -f "$REAL/bakefs.toml" 2>>"$WORK/build.log"
  fi
}
# The real tree with photos (section j): the example's landscape and the
# photographs in disintegration/imaging's test data, each made into a
# srcset of AVIF, WebP and JPEG.
REALP=$WORK/realphotos
real_photo_tree() {
  [ -d "$REALP/web" ] && return
  real_tree
  local imaging
  mkdir -p "$REALP"
  cp -a "$REAL/web" "$REALP/web"
  mkdir -p "$REALP/web/photos"
  imaging=$(go list -m -f '{{.Dir}}' github.com/disintegration/imaging)
  cp examples/webapp/web/static/img/lake.jpg "$imaging/testdata/branches.jpg" "$imaging/testdata/out_example.jpg" "$REALP/web/photos/"
  chmod u+w "$REALP/web/photos/"*
  runtime_module benchrealphotos "$REALP"
  # The real tree's project file with the photos' rule before its own
  # (the first rule that matches a file makes it).
  {
    sed -e 's|benchreal/pkg|benchrealphotos/pkg|' -e '/^\[\[rule\]\]$/,$d' "$REAL/bakefs.toml"
    printf '[[rule]]\nmatch = "photos/*.jpg"\nsteps = ["srcset:widths=480+960,formats=avif+webp+jpeg,quality=80"]\n\n'
    sed -n '/^\[\[rule\]\]$/,$p' "$REAL/bakefs.toml"
  } >"$REALP/bakefs.toml"
}
# The synthetic 1,000 files with a [package] (sections k, l).
PKG=$WORK/synth1000-pkg
pkg_tree() {
  [ -d "$PKG" ] && return
  cp -a "$SYNTH" "$PKG"
  printf '\n[package]\ndir = "pkg/assets"\nname = "assets"\n' >>"$PKG/bakefs.toml"
}

# ----------------------------------------------------------------- rxjs --

if want rxjs; then
  log "rxjs: bundle + minify of a real TypeScript library vs the esbuild CLI"
  out "### h. Bundle + minify rxjs (real TypeScript, npm rxjs@7.8.2 src/, $(find "$NM/rxjs/src" -name '*.ts' | wc -l) modules) vs the esbuild CLI" ""
  h=$WORK/rxjs
  mkdir -p "$h"
  cp -r "$NM/rxjs/src" "$h/src"
  "$SBS" -rounds "$((ROUNDS * 2))" -warmup 1 -md "$RESULTS" \
    -title "src/index.ts, format=esm, target=es2020, minify" \
    -prepare "esbuild-cli=rm -rf $h/esbuild" \
    -prepare "bakefs-one-step=rm -rf $h/one" \
    -prepare "bakefs-bundle+minify=rm -rf $h/two" \
    "esbuild-cli=$ESBUILD $h/src/index.ts --bundle --splitting --format=esm --target=es2020 --minify --log-level=warning --outdir=$h/esbuild" \
    "bakefs-one-step=$BAKEFS transform --no-cache --root $h/src --out $h/one --step bundle:format=esm,minify=true $h/src/index.ts" \
    "bakefs-bundle+minify=$BAKEFS transform --no-cache --root $h/src --out $h/two --step bundle:format=esm --step minify $h/src/index.ts" \
    >"$h/table.md"
  same1=no same2=no
  cmp -s "$h/esbuild/index.js" "$h/one/index.js" && same1=yes
  cmp -s "$h/one/index.js" "$h/two/index.js" && same2=yes
  out "Output: esbuild CLI $(bytes "$h/esbuild/index.js") B, bakefs bundle:minify=true $(bytes "$h/one/index.js") B (same bytes as the CLI: $same1), bakefs bundle then minify $(bytes "$h/two/index.js") B (same bytes as the one-step form: $same2)." ""
  profile "bakefs bundle:minify=true of rxjs" 5 "$BAKEFS" transform --no-cache --root "$h/src" --out "$h/prof" --step bundle:format=esm,minify=true "$h/src/index.ts"
  r1=$(cell bakefs-one-step 4 "$h/table.md") r2=$(cell bakefs-bundle+minify 4 "$h/table.md")
  goal "| 1. rxjs bundle:minify=true / esbuild CLI (goal ≤ 1.05×) | $r1; same bytes: $same1 | $(met "$(num "$r1") <= 1.05 && \"$same1\" == \"yes\"") |"
  goal "| 1. rxjs bundle then minify / esbuild CLI (same bytes and time as one step) | $r2; same bytes as one step: $same2 | $(met "$(num "$r2") <= $(num "$r1") * 1.05 && \"$same2\" == \"yes\"") |"
fi

# ---------------------------------------------------------------- three --

if want three; then
  log "three.js x10 vs the esbuild CLI"
  out "### i. three.js ×10 (esbuild's benchmark: npm three@0.187.0 src/ copied ten times, one entry importing each copy's Three.js)" ""
  t=$WORK/three10
  mkdir -p "$t"
  for n in 1 2 3 4 5 6 7 8 9 10; do
    cp -r "$NM/three/src" "$t/copy$n"
    echo "import * as copy$n from './copy$n/Three.js'; export { copy$n };" >>"$t/entry.js"
  done
  "$SBS" -rounds "$ROUNDS" -warmup 1 -md "$RESULTS" \
    -title "entry.js ($(find "$t" -name '*.js' | wc -l) modules, $(du -sb "$t" | cut -f1) B), format=esm, minify" \
    -prepare "esbuild-cli=rm -rf $t/esbuild" \
    -prepare "bakefs-one-step=rm -rf $t/one" \
    "esbuild-cli=$ESBUILD $t/entry.js --bundle --splitting --format=esm --target=es2020 --minify --log-level=error --outdir=$t/esbuild" \
    "bakefs-one-step=$BAKEFS transform --no-cache --root $t --out $t/one --step bundle:format=esm,minify=true $t/entry.js" \
    >"$t/table.md"
  same=no
  cmp -s "$t/esbuild/entry.js" "$t/one/entry.js" && same=yes
  out "Output: esbuild CLI $(bytes "$t/esbuild/entry.js") B, bakefs $(bytes "$t/one/entry.js") B (same bytes: $same)." ""
  profile "bakefs bundle:minify=true of three.js ×10" 1 "$BAKEFS" transform --no-cache --root "$t" --out "$t/prof" --step bundle:format=esm,minify=true "$t/entry.js"
  r2=$(cell bakefs-one-step 4 "$t/table.md")
  goal "| 2. three.js ×10, bakefs / esbuild CLI (goal ≤ 1.1×, same bytes) | $r2, peak RSS $(cell bakefs-one-step 5 "$t/table.md") vs $(cell esbuild-cli 5 "$t/table.md"); same bytes: $same | $(met "$(num "$r2") <= 1.1 && \"$same\" == \"yes\"") |"
fi

# ----------------------------------------------------------------- real --

if want real; then
  real_tree
  log "real tree: cold release build against the compression CLIs"
  out "### j. Cold release build of the real mixed tree: against the brotli, gzip and zstd CLIs, and peak RSS with photos" ""
  out "Tree: $(cat "$REAL.txt")." ""
  j=$WORK/realfloor
  # The floor: the bytes bakefs compresses (each output that has a
  # variant), compressed by the C CLIs at the release levels (brotli 11,
  # gzip 9, zstd 11, the level klauspost/compress documents its best as),
  # as many files at a time as bakefs runs jobs (one per core).
  real_built
  mkdir -p "$j"
  (cd "$REAL/build" && find . -type f \( -name '*.br' -o -name '*.gz' -o -name '*.zst' \) | sed 's/\.\(br\|gz\|zst\)$//' | sort -u >"$j/list.txt"
    tar -cf - -T "$j/list.txt") | (mkdir -p "$j/src" && cd "$j/src" && tar -xf -)
  cat >"$j/clis.sh" <<EOF
#!/usr/bin/env bash
set -e
cd $j/src
xargs -P $(nproc) -n 16 brotli -f -k -q 11 <$j/list.txt
xargs -P $(nproc) -n 16 gzip -f -k -9 <$j/list.txt
xargs -P $(nproc) -n 16 zstd -f -k -q -11 <$j/list.txt
EOF
  clean="rm -rf $REAL/build $REAL/.bakefs-cache $REAL/pkg"
  "$SBS" -rounds 2 -warmup 0 -md "$RESULTS" \
    -title "Cold build, $(wc -l <"$j/list.txt") of the outputs get variants" \
    -prepare "bakefs-build=$clean" \
    -prepare "c-clis=find $j/src -name '*.br' -o -name '*.gz' -o -name '*.zst' | xargs rm -f" \
    "bakefs-build=$BAKEFS build -f $REAL/bakefs.toml" \
    "c-clis=bash $j/clis.sh" >"$j/table.md"
  # Brotli's bytes: each .br of the tree against the C tool's for the same
  # file (its window is chosen from the file's size, as bakefs chooses it).
  nbr=0 samebr=0
  while read -r f; do
    [ -f "$REAL/build/$f.br" ] || continue
    nbr=$((nbr + 1))
    if cmp -s "$REAL/build/$f.br" "$j/src/$f.br"; then samebr=$((samebr + 1)); else echo "$f" >>"$j/br-differs.txt"; fi
  done <"$j/list.txt"
  out "The C CLIs: brotli $(brotli --version | cut -d' ' -f2), gzip $(gzip --version | head -1 | cut -d' ' -f2), zstd $(zstd --version | sed 's/.* v\([0-9.]*\).*/\1/'); they compress without minifying, so they are a floor. Brotli: $samebr of $nbr .br files byte for byte the C tool's$( [ -s "$j/br-differs.txt" ] && printf '; differ: %s' "$(head -5 "$j/br-differs.txt" | paste -sd' ')")." ""
  eval "$clean"
  profile "cold release build of the real tree" 1 "$BAKEFS" build -f "$REAL/bakefs.toml"
  tc=$(cell c-clis 4 "$j/table.md")
  goal "| 3. real tree cold build / C CLIs on the same files, same parallelism (goal ≤ 0.9×, same brotli bytes) | CLIs are $tc of bakefs; brotli bytes the same in $samebr of $nbr files | $(met "1 / $(num "$tc") <= 0.9 && $samebr == $nbr") |"

  # Peak RSS: the same tree with photos, each made into a srcset of AVIF,
  # WebP and JPEG at two widths.
  real_photo_tree
  log "real tree with photos: cold release build, peak RSS, GOGC=400"
  clean="rm -rf $REALP/build $REALP/.bakefs-cache $REALP/pkg"
  "$SBS" -rounds 2 -warmup 0 -md "$RESULTS" \
    -title "Cold build of the real tree with $(find "$REALP/web/photos" -type f | wc -l) photos (srcset 480+960, AVIF, WebP, JPEG)" \
    -prepare "bakefs-build=$clean" -prepare "bakefs-build-gogc400=$clean" \
    "bakefs-build=$BAKEFS build -f $REALP/bakefs.toml" \
    "bakefs-build-gogc400=GOGC=400 $BAKEFS build -f $REALP/bakefs.toml" >"$j/photos.md"
  eval "$clean"
  profile "cold release build of the real tree with photos" 1 "$BAKEFS" build -f "$REALP/bakefs.toml"
  after=$(cell bakefs-build 5 "$j/photos.md") before=$(cell bakefs-build-gogc400 5 "$j/photos.md")
  tb=$(cell bakefs-build-gogc400 4 "$j/photos.md")
  goal "| 3. real tree with photos (AVIF, WebP) cold build: peak RSS (goal ≤ 256 MB) | $after (GOGC=400: $before) | $(met "$(num "$after") * 1.048576 <= 256") |"
  goal "| 3. same, time with GOGC=400 / default (goal: default ≤ 1.05× GOGC=400) | GOGC=400 is $tb of the default | $(met "1 / $(num "$tb") <= 1.05") |"
fi

# --------------------------------------------------------------- pkgrss --

if want pkgrss; then
  pkg_tree
  log "synthetic 1,000 files with a [package]: cold build peak RSS"
  out "### k. Cold release build of bench/gen 1,000 files with a [package]" ""
  k=$WORK/pkgrss
  mkdir -p "$k"
  clean="rm -rf $PKG/build $PKG/.bakefs-cache $PKG/pkg"
  "$SBS" -rounds 2 -warmup 0 -md "$RESULTS" \
    -title "Cold build, [package] dir = \"pkg/assets\"" \
    -prepare "bakefs-build=$clean" -prepare "bakefs-build-gogc400=$clean" \
    "bakefs-build=$BAKEFS build -f $PKG/bakefs.toml" \
    "bakefs-build-gogc400=GOGC=400 $BAKEFS build -f $PKG/bakefs.toml" >"$k/table.md"
  eval "$clean"
  profile "cold release build of bench/gen 1,000 + [package]" 1 "$BAKEFS" build -f "$PKG/bakefs.toml"
  rss=$(cell bakefs-build 5 "$k/table.md")
  goal "| 4. bench/gen 1,000 + [package] cold build: peak RSS (goal ≤ 256 MiB) | $rss (GOGC=400: $(cell bakefs-build-gogc400 5 "$k/table.md"), time $(cell bakefs-build-gogc400 4 "$k/table.md") of the default) | $(met "$(num "$rss") <= 256") |"
fi

# ------------------------------------------------------------- nochange --

if want nochange; then
  real_built
  pkg_tree
  [ -d "$PKG/build" ] || "$BAKEFS" build -f "$PKG/bakefs.toml" 2>>"$WORK/build.log"
  log "no-change builds vs rsync"
  out "### l. No-change build with a [package] vs \`rsync -a\` of the unchanged source tree" ""
  rsync -a "$REAL/web/" "$WORK/rsync-real/"
  rsync -a "$PKG/web/" "$WORK/rsync-pkg/"
  "$SBS" -rounds "$((ROUNDS * 2))" -warmup 2 -md "$RESULTS" -title "Real mixed tree, $(cat "$REAL.txt")" \
    "rsync=rsync -a $REAL/web/ $WORK/rsync-real/" \
    "bakefs-nochange=$BAKEFS build -f $REAL/bakefs.toml" >"$WORK/nochange-real.md"
  "$SBS" -rounds "$((ROUNDS * 2))" -warmup 2 -md "$RESULTS" -title "bench/gen 1,000 files with a [package]" \
    "rsync=rsync -a $PKG/web/ $WORK/rsync-pkg/" \
    "bakefs-nochange=$BAKEFS build -f $PKG/bakefs.toml" >"$WORK/nochange-pkg.md"
  profile "no-change build of the real tree + [package]" 40 "$BAKEFS" build -f "$REAL/bakefs.toml"
  profile "no-change build of bench/gen 1,000 + [package]" 40 "$BAKEFS" build -f "$PKG/bakefs.toml"
  for t in real pkg; do
    r=$(cell bakefs-nochange 4 "$WORK/nochange-$t.md")
    what="real tree"
    [ "$t" = pkg ] && what="bench/gen 1,000"
    goal "| 5. no-change build / rsync -a, $what + [package] (goal ≤ 1.2×) | $r ($(cell bakefs-nochange 2 "$WORK/nochange-$t.md") vs $(cell rsync 2 "$WORK/nochange-$t.md")) | $(met "$(num "$r") <= 1.2") |"
  done
fi

# ----------------------------------------------------------------- init --

if want init; then
  real_built
  log "generated package init"
  out "### m. Init of the generated package of the real tree (GODEBUG=inittrace=1)" ""
  mkdir -p "$REAL/cmd/initbench"
  printf 'package main\n\nimport _ "benchreal/pkg/assets"\n\nfunc main() {}\n' >"$REAL/cmd/initbench/main.go"
  (cd "$REAL" && GOFLAGS=-mod=mod go build -o "$WORK/bin/initbench" ./cmd/initbench)
  nfiles=$(grep -c . "$REAL/pkg/assets/bakefs-manifest.tsv" || true)
  for _ in $(seq 21); do GODEBUG=inittrace=1 "$WORK/bin/initbench" 2>&1 | grep '^init benchreal/pkg/assets '; done >"$WORK/init.txt"
  # init benchreal/pkg/assets @0.5 ms, 0.21 ms clock, 4096 bytes, 12 allocs
  stats=$(awk '{ print $5, $8, $10 }' "$WORK/init.txt" | sort -n | awk '{ c[NR] = $1; b = $2; a = $3 } END { printf "median %s ms clock (min %s, max %s) over %d starts, %s bytes, %s allocs", c[int((NR + 1) / 2)], c[1], c[NR], NR, b, a }')
  out "Package of $nfiles manifest lines; \`GODEBUG=inittrace=1\` on \`import _ \"benchreal/pkg/assets\"\`: $stats." "" '```' "$(head -3 "$WORK/init.txt")" '```' ""
  # The work the package defers from init to the FS's first use (reading
  # the manifest, building the indexes), in a loop, in a copy of the
  # package with a benchmark beside it.
  rm -rf "$REAL/initprof" && mkdir -p "$REAL/initprof" && cp -a "$REAL/pkg/assets" "$REAL/initprof/assets"
  rm -f "$REAL/initprof/assets/bakefs_embed_test.go"
  printf 'package assets\n\nimport (\n\t"testing"\n\n\tbakefs "github.com/bakefs/bakefs/fs"\n)\n\nfunc BenchmarkFirstUse(b *testing.B) {\n\tfor b.Loop() {\n\t\tbakefs.NewLazy(dataTree(), loadManifest).Path("x")\n\t}\n}\n' >"$REAL/initprof/assets/init_bench_test.go"
  (cd "$REAL" && GOFLAGS=-mod=mod go test -run '^$' -bench FirstUse -benchmem -benchtime 3s -cpuprofile "$WORK/init.pprof" -o "$WORK/bin/initprof.test" ./initprof/assets) >"$WORK/init-bench.txt"
  out "The work deferred to the FS's first use, in a loop (\`go test -bench FirstUse -benchmem\` in a copy of the package): $(awk '/^BenchmarkFirstUse/ { print $3, $4, $5, $6, $7, $8 }' "$WORK/init-bench.txt")." ""
  pprof_top "first use of the generated package's FS (manifest and indexes, in a loop)" "$WORK/init.pprof"
  goal "| 6. generated package init, real tree (goal ≤ 2 ms) | $stats | $(met "$(num "${stats#median }") <= 2") |"
fi

# -------------------------------------------------------------- devedit --

if want devedit; then
  real_tree
  log "bakefs dev: one HTML edit to new bytes served"
  out "### n. \`bakefs dev\` on the real tree: one HTML file edited → new bytes served" ""
  n=$WORK/devedit
  mkdir -p "$n"
  port=$((20000 + RANDOM % 20000))
  page=docs/index.html
  "$BAKEFS" dev -f "$REAL/bakefs.toml" -addr "127.0.0.1:$port" >"$n/dev.log" 2>&1 &
  SERVER_PID=$!
  url=http://127.0.0.1:$port/$page
  t0=$(date +%s%N)
  for _ in $(seq 3000); do curl -fsS -o /dev/null "$url" 2>/dev/null && break; sleep 0.1; done
  curl -fsS -o /dev/null "$url" || { cat "$n/dev.log" >&2; exit 1; }
  out "First build served after $((($(date +%s%N) - t0) / 1000000)) ms (dev profile, cold cache)." ""
  : >"$n/times.txt"
  for i in $(seq "$ROUNDS"); do
    sleep 1
    mark="bench-edit-$i-$RANDOM"
    t0=$(date +%s%N)
    printf '<p>%s</p>\n' "$mark" >>"$REAL/web/$page"
    ok=
    for _ in $(seq 2000); do
      if curl -fsS "$url" 2>/dev/null | grep -q "$mark"; then ok=1; break; fi
    done
    [ -n "$ok" ] || { log "edit $i never served"; cat "$n/dev.log" >&2; exit 1; }
    echo $((($(date +%s%N) - t0) / 1000000)) >>"$n/times.txt"
  done
  kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true; SERVER_PID=
  times=$(paste -sd' ' "$n/times.txt")
  med=$(sort -n "$n/times.txt" | sed -n "$(((ROUNDS + 1) / 2))p")
  # The server's own time per rebuild, from its log ("build N: … in 42ms"),
  # apart from the watcher's quiet period and the polling.
  builds=$(sed -n 's/^bakefs dev: build [0-9]*: .* in \([0-9.]*\)\(m\?s\)$/\1 \2/p' "$n/dev.log" | tail -n +2 |
    awk '{ printf "%s%d", (NR > 1 ? " " : ""), ($2 == "s" ? $1 * 1000 : $1) }')
  out "Edit → new bytes served, $ROUNDS edits (append a paragraph to $page, poll with curl): $times ms; median **$med ms**. The server's rebuilds, from its log: $builds ms." ""
  goal "| 7. bakefs dev, one HTML edit → new bytes served (goal ≤ 100 ms) | median $med ms ($times ms) | $(met "$med <= 100") |"
fi

# ------------------------------------------------------------------ css --

if want css; then
  log "serving a real stylesheet: bakefs handler vs statigz vs http.FileServer"
  css=$NM/bulma/css/bulma.min.css
  out "### o. Serving a real stylesheet (bulma@1.0.4 css/bulma.min.css, $(bytes "$css") B): bakefs handler vs statigz $STATIGZ_VERSION vs http.FileServer" ""
  o=$WORK/css
  mkdir -p "$o/srv/site" "$o/statigz"
  cp bench/server/main.go bench/server/handlers.go "$o/srv/"
  cp bench/server/site/README.md "$o/srv/site/"
  runtime_module benchserver "$o/srv"
  "$BAKEFS" transform --no-cache --root "$(dirname "$css")" --out "$o/srv/site/tree" --compress br,gzip "$css" 2>>"$WORK/build.log"
  (cd "$o/srv" && GOFLAGS=-mod=mod go build -o "$WORK/bin/server" .)
  # statigz gets the same file and the same .br and .gz bytes as sidecars.
  cp "$STATIGZ_MOD/main.go" "$STATIGZ_MOD/go.mod" "$STATIGZ_MOD/go.sum" "$o/statigz/"
  mkdir -p "$o/statigz/site"
  cp "$o/srv/site/tree/bulma.min.css"* "$o/statigz/site/"
  (cd "$o/statigz" && go build -o "$WORK/bin/statigz-server" .)
  port=$((20000 + RANDOM % 20000))
  "$WORK/bin/server" -bakefs "127.0.0.1:$port" -plain "127.0.0.1:$((port + 1))" -file bulma.min.css -timeout 5m >"$o/ready" 2>"$o/server.log" &
  SERVER_PID=$!
  "$WORK/bin/statigz-server" "127.0.0.1:$((port + 2))" 5m 2>"$o/statigz.log" &
  STATIGZ_PID=$!
  for _ in $(seq 100); do grep -q '^ready' "$o/ready" && break; sleep 0.1; done
  grep -q '^ready' "$o/ready" || { cat "$o/server.log" >&2; exit 1; }
  read -r _ bakefs_url plain_url size br gz < <(sed 's/[a-z]*=//g' "$o/ready")
  statigz_url=http://127.0.0.1:$((port + 2))/bulma.min.css
  for _ in $(seq 100); do curl -fsS -o /dev/null "$statigz_url" 2>/dev/null && break; sleep 0.1; done
  for side in bakefs statigz plain; do
    eval "url=\$${side}_url"
    curl -fsS -o /dev/null -H 'Accept-Encoding: br, gzip' -w '%{size_download} %header{content-encoding}\n' "$url" >"$o/check-$side"
  done
  out "Sent for \`Accept-Encoding: br, gzip\`: bakefs $(cat "$o/check-bakefs"), statigz $(cat "$o/check-statigz"), http.FileServer $(cat "$o/check-plain") (bytes, encoding); br $br B, gzip $gz B." ""
  # Each round runs the three servers in turn, rotating which goes first;
  # a ratio is the median over the rounds of the ratio within a round, so
  # that a neighbour's load that slows a whole round cancels out. Server
  # CPU per request (user + system time of the server process over the run,
  # divided by the requests wrk counted) is less affected by that load than
  # requests/s, which also measure wrk on the same cores.
  out "| round | server | requests/s | transfer/s | server CPU per request | socket errors |" "|---|---|---:|---:|---:|---|"
  : >"$o/rps.txt"
  hz=$(getconf CLK_TCK)
  sides=(bakefs statigz plain)
  for round in $(seq "$ROUNDS"); do
    for k in 0 1 2; do
      side=${sides[$(((round - 1 + k) % 3))]}
      eval "url=\$${side}_url"
      pid=$SERVER_PID
      [ "$side" = statigz ] && pid=$STATIGZ_PID
      t0=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
      timeout 30 wrk -t1 -c16 -d5s --timeout 5s -H 'Accept-Encoding: br, gzip' "$url" >"$o/wrk-$side-$round.txt"
      t1=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
      if grep -q Non-2xx "$o/wrk-$side-$round.txt"; then cat "$o/wrk-$side-$round.txt" >&2; exit 1; fi
      rps=$(awk '/^Requests\/sec:/ { print $2 }' "$o/wrk-$side-$round.txt")
      tps=$(awk '/^Transfer\/sec:/ { print $2 }' "$o/wrk-$side-$round.txt")
      errs=$(awk -F': ' '/Socket errors/ { print $2 }' "$o/wrk-$side-$round.txt")
      cpu=$(awk -v t=$((t1 - t0)) -v hz="$hz" '/ requests in / { printf "%.1f", t * 1e6 / hz / $1 }' "$o/wrk-$side-$round.txt")
      echo "$round $side $rps $cpu" >>"$o/rps.txt"
      out "| $round | $side | $rps | $tps | $cpu µs | ${errs:-none} |"
    done
  done
  kill "$SERVER_PID" "$STATIGZ_PID"; wait "$SERVER_PID" "$STATIGZ_PID" 2>/dev/null || true; SERVER_PID= STATIGZ_PID=
  # roundratio A B COLUMN: the median over the rounds of A's COLUMN of
  # rps.txt divided by B's in the same round, and the smallest and largest.
  roundratio() {
    awk -v a="$1" -v b="$2" -v c="$3" '$2 == a { x[$1] = $c } $2 == b { y[$1] = $c }
      END {
        n = 0
        for (r in x) if (y[r] > 0) q[++n] = x[r] / y[r]
        for (i = 2; i <= n; i++) for (j = i; j > 1 && q[j - 1] > q[j]; j--) { t = q[j]; q[j] = q[j - 1]; q[j - 1] = t }
        m = n % 2 ? q[(n + 1) / 2] : (q[n / 2] + q[n / 2 + 1]) / 2
        printf "%.2f× (%.2f–%.2f)", m, q[1], q[n]
      }' "$o/rps.txt"
  }
  rs=$(roundratio bakefs statigz 3)
  rp=$(roundratio bakefs plain 3)
  cs=$(roundratio statigz bakefs 4)
  out "" "Requests/s, bakefs / statigz: **${rs}**; bakefs / http.FileServer: **${rp}**. Server CPU per request, statigz / bakefs: **${cs}** (medians of the ratios within each of $ROUNDS rounds, smallest and largest in brackets)." \
    "Command: \`wrk -t1 -c16 -d5s -H 'Accept-Encoding: br, gzip' URL\`, loopback, servers and wrk on the same $(nproc) cores." ""
  goal "| 8. serving bulma.min.css, bakefs / statigz (goal ≥ 1.5×) | ${rs} requests/s; server CPU per request statigz / bakefs ${cs} (bakefs / http.FileServer ${rp}) | $(met "$(num "$rs") >= 1.5") |"
fi

# ----------------------------------------------------------------- vite --

if want vite; then
  log "whole pipeline: vite build vs bakefs build"
  out "### p. Whole pipeline: \`vite build\` (vite@8.4.0, manifest; with vite-plugin-compression2@2.5.3) vs \`bakefs build\` of the same app" ""
  p=$WORK/vite
  mkdir -p "$p/app/src"
  # three.js's sources: Vite 8 (Rolldown) stops on rxjs's sources, which
  # re-export types without \`export type\` (MISSING_EXPORT).
  cp -r "$NM/three/src" "$p/app/src/three"
  cp "$NM/bulma/css/bulma.css" "$p/app/src/bulma.css"
  printf '<!doctype html>\n<html><head><meta charset="utf-8"><title>bench</title></head>\n<body><div id="app"></div><script type="module" src="/src/main.ts"></script></body></html>\n' >"$p/app/index.html"
  cat >"$p/app/src/main.ts" <<'EOF'
import './bulma.css';
import * as THREE from './three/Three.js';

const app = document.getElementById('app')!;
const v: THREE.Vector3 = new THREE.Vector3(1, 2, 3);
app.textContent = `${v.length()} ${THREE.REVISION}`;
EOF
  ln -s "$NM" "$p/app/node_modules"
  printf "export default { logLevel: 'warn', build: { manifest: true, outDir: 'dist-plain', emptyOutDir: true } };\n" >"$p/app/vite.plain.mjs"
  printf "import { compression } from 'vite-plugin-compression2';\nexport default { logLevel: 'warn', plugins: [compression({ algorithms: ['gzip', 'brotliCompress'] })], build: { manifest: true, outDir: 'dist-comp', emptyOutDir: true } };\n" >"$p/app/vite.comp.mjs"
  cat >"$p/app/bakefs.toml" <<'EOF'
src   = "."
out   = "bakefs-out"
cache = ".bakefs-cache"
compress = ["br", "gzip"]
hash  = true

[[rule]]
match = "src/main.ts"
steps = ["bundle:format=esm,minify=true"]

[[rule]]
match = "index.html"
steps = ["minify"]
EOF
  clean="rm -rf $p/app/bakefs-out $p/app/.bakefs-cache"
  (cd "$p/app" && "$SBS" -rounds "$ROUNDS" -warmup 1 -md "$RESULTS" \
    -title "index.html + src/main.ts (three.js src, $(find "$p/app/src/three" -name '*.js' | wc -l) modules, and bulma.css)" \
    -prepare "bakefs-build=$clean" \
    "bakefs-build=$BAKEFS build -f $p/app/bakefs.toml" \
    "vite-build=$NM/.bin/vite build --config vite.plain.mjs" \
    "vite-build+compression2=$NM/.bin/vite build --config vite.comp.mjs" >"$p/table.md")
  out "Output: bakefs $(treebytes "$p/app/bakefs-out") B in $(find "$p/app/bakefs-out" -type f | wc -l) files (br 11, gzip 9), vite $(treebytes "$p/app/dist-plain") B in $(find "$p/app/dist-plain" -type f | wc -l) files, vite with compression2 $(treebytes "$p/app/dist-comp") B in $(find "$p/app/dist-comp" -type f | wc -l) files (its default levels)." ""
  # The brotli bytes of the app's scripts and style sheets: bakefs's from
  # its manifest (its tree holds each file under a second, hashed name too),
  # Vite's from its assets directory.
  brb=$(jq '[.files[] | select(.path | test("\\.(js|css)$")) | .encodings[] | select(.name == "br") | .size] | add' "$p/app/bakefs-out/bakefs-manifest.json")
  brv=$(cat "$p/app/dist-comp/assets/"*.js.br "$p/app/dist-comp/assets/"*.css.br | wc -c)
  rv=$(cell vite-build+compression2 4 "$p/table.md")
  goal "| 9. whole pipeline with brotli and gzip, vite build + vite-plugin-compression2 / bakefs build (cold; goal ≥ 1.5×, brotli bytes the same or fewer) | $rv (without compression: $(cell vite-build 4 "$p/table.md")); brotli bytes bakefs $brb, vite $brv | $(met "$(num "$rv") >= 1.5 && $brb <= $brv") |"
fi

# -------------------------------------------------------------- imaging --

if want imaging; then
  log "resize: imaging called directly vs bakefs's resize step"
  out "### q. Resize to 960 px wide + JPEG 85: disintegration/imaging called directly vs \`bakefs transform --step resize\`" ""
  q=$WORK/imaging
  mkdir -p "$q"
  go build -o "$WORK/bin/imgresize" ./bench/imgresize
  img=examples/webapp/web/static/img/lake.jpg
  "$SBS" -rounds "$((ROUNDS * 2))" -warmup 1 -md "$RESULTS" \
    -title "$(basename "$img") ($(bytes "$img") B) to 960 px, Lanczos, JPEG quality 85" \
    -prepare "bakefs-resize=rm -rf $q/bakefs" \
    "imaging=$WORK/bin/imgresize -width 960 -quality 85 -o $q/imaging.jpg $img" \
    "bakefs-resize=$BAKEFS transform --no-cache --root $(dirname "$img") --out $q/bakefs --step resize:width=960 $img" >"$q/table.md"
  same=no
  cmp -s "$q/imaging.jpg" "$q/bakefs/$(basename "$img")" && same=yes
  out "Output: imaging $(bytes "$q/imaging.jpg") B, bakefs $(bytes "$q/bakefs/$(basename "$img")") B (same bytes: $same)." ""
  goal "| 10. resize + JPEG, bakefs / imaging direct (a peer, no goal) | $(cell bakefs-resize 4 "$q/table.md"); same bytes: $same | — |"
fi

# ----------------------------------------------------------------- lazy --

# lazy_bytes DIR LIST: each line "CLASS FILE" of LIST as "CLASS BYTES
# BROTLI FILE": FILE's size under DIR and that of FILE.br beside it (the
# file's own size when the tool wrote no .br, as a server then sends it).
lazy_bytes() {
  local class file br
  while read -r class file; do
    br=$1/$file
    [ -f "$br.br" ] && br=$br.br
    echo "$class $(bytes "$1/$file") $(bytes "$br") $file"
  done <"$2"
}
# lazy_report TOOL DIR PAGE: the row of one tool from DIR/files.txt (lines
# of lazy_bytes; DIR/out is the output), then the checks: no lazy route's
# file in the initial load by the manifest; by content, the home view's
# marker string in the initial load and no lazy route's (their
# data-route attributes, and reports-chart, a class of Reports.css); three
# dynamic imports; every file the page PAGE names in the output.
lazy_report() {
  local tool=$1 d=$2 page=$3 f m n missing=
  : >"$d/page.txt"
  awk -v tool="$tool" '
    $1 == "all" { n++; raw += $2; br += $3; if ($4 ~ /\.js$/) js++ }
    $1 == "initial" { ni++; iraw += $2; ibr += $3 }
    END { printf "| %s | %d | %d | %d B (%d B raw, %d files) | %d B (%d B raw) |\n", tool, js, n - js, ibr, iraw, ni, br, raw }' "$d/files.txt" >>"$RESULTS"
  awk '$1 == "initial" { br += $3 } END { print br }' "$d/files.txt" >"$d/initial.br"
  for f in $(awk 'NR == FNR { if ($1 == "initial") i[$4]; next } $1 == "route" && ($4 in i) { print $4 }' "$d/files.txt" "$d/files.txt"); do
    lazy_warn "$tool: the lazy route file $f is in the initial load"
  done
  for f in $(awk '$1 == "initial" { print $4 }' "$d/files.txt"); do
    for m in route-reports route-team route-settings reports-chart; do
      if grep -q "$m" "$d/out/$f"; then lazy_warn "$tool: $f, in the initial load, holds \"$m\", which only a lazy route uses"; fi
    done
  done
  (cd "$d/out" && grep -q route-home $(awk '$1 == "initial" { print $4 }' "$d/files.txt") </dev/null) ||
    lazy_warn "$tool: the home view's marker route-home is in no file of the initial load"
  n=$(awk '$1 == "route" && $4 ~ /\.js$/' "$d/files.txt" | wc -l)
  [ "$n" = 3 ] || lazy_warn "$tool: the entry's manifest record names $n dynamic imports, not 3"
  for f in $(grep -oE '(src|href)="?/[^" >]+' "$page" | sed -E 's/^(src|href)="?\///'); do
    echo "$f" >>"$d/page.txt"
    [ -f "$d/out/$f" ] || missing="$missing $f"
  done
  [ -z "$missing" ] || lazy_warn "$tool: index.html names files that are not in the output:$missing"
}
lazy_warn() { log "WARNING: $*"; echo "$*" >>"$WORK/lazy-warnings.txt"; }
# lazy_names CLASS DIR: the files of CLASS in DIR/files.txt, comma-separated.
lazy_names() { awk -v c="$1" '$1 == c { printf "%s%s", (n++ ? ", " : ""), $4 }' "$2/files.txt"; }

if want lazy; then
  log "lazy routes: vite build vs bakefs build of a React app split by route"
  out "### r. Lazy routes: \`vite build\` (vite@8.4.0, @vitejs/plugin-react@6.3.1, vite-plugin-compression2@2.5.3) vs \`bakefs build\` of a React 19 app with three routes loaded by \`React.lazy\`" ""
  r=$WORK/lazy
  mkdir -p "$r"
  cp -r bench/lazyapp "$r/app"
  ln -s "$NM" "$r/app/node_modules"
  # The heavy route's generated table: 1,200 sales, the same every run.
  awk 'BEGIN {
    split("North South East West Central", region, " ")
    split("Widget Gadget Sprocket Gizmo Doohickey Thingamajig Whatsit Contraption", product, " ")
    split("Online Retail Partner Direct", channel, " ")
    print "// Generated by bench/run.sh (section r): 1,200 sales, the same every run."
    print "export type Sale = { id: number; date: string; region: string; product: string; channel: string; quantity: number; price: number };"
    print "export const sales: Sale[] = ["
    x = 12345
    for (i = 1; i <= 1200; i++) {
      x = (x * 16807) % 2147483647
      printf "  { id: %d, date: \"2025-%02d-%02d\", region: \"%s\", product: \"%s\", channel: \"%s\", quantity: %d, price: %d },\n",
        i, 1 + x % 12, 1 + int(x / 12) % 28, region[1 + int(x / 7) % 5], product[1 + int(x / 11) % 8],
        channel[1 + int(x / 13) % 4], 1 + int(x / 17) % 40, 5 + int(x / 19) % 495
    }
    print "];"
  }' >"$r/app/src/routes/salesData.ts"
  a=$r/app
  (cd "$a" && "$SBS" -rounds "$ROUNDS" -warmup 1 -md "$RESULTS" \
    -title "index.html + src/main.tsx: React $(jq -r .version "$NM/react/package.json"), $(find "$a/src" -name '*.ts*' | wc -l) modules of the app ($(cat $(find "$a/src" -name '*.ts*') | wc -c) B), 2 style sheets; br only on both sides" \
    -prepare "bakefs-build=rm -rf $a/bakefs-out $a/.bakefs-cache" \
    -prepare "vite-build=rm -rf $a/dist" \
    "bakefs-build=$BAKEFS build -f $a/bakefs.toml" \
    "vite-build=$NM/.bin/vite build" >"$r/table.md")
  # The files of each tool, from its manifest: "all" every JavaScript and
  # CSS output, "initial" the entry's closure (the entry, the chunks it
  # imports statically, transitively, and the style sheets of each),
  # "route" the chunks the entry imports with import() and their style
  # sheets. bakefs's entry is src/main.js, whose source is src/main.tsx.
  jq -e '.files | any(.path == "src/main.js")' "$a/bakefs-out/bakefs-manifest.json" >/dev/null || { log "bakefs wrote no src/main.js"; exit 1; }
  mkdir -p "$r/bakefs" "$r/vite"
  ln -s "$a/bakefs-out" "$r/bakefs/out"
  ln -s "$a/dist" "$r/vite/out"
  jq -r '
    (.files | map({ (.path): . }) | add) as $f
    | $f["src/main.js"] as $entry
    | [$entry | recurse(.imports[]? | $f[.])] as $closure
    | ([$f[] | select(.type | test("^text/(javascript|css)")) | "all \(.path)"]
      + [($closure[].path, $closure[].css[]?) | "initial \(.)"]
      + [$entry.dynamicImports[]? | $f[.] | (.path, .css[]?) | "route \(.)"])
    | unique[]' "$a/bakefs-out/bakefs-manifest.json" >"$r/bakefs/list.txt"
  jq -r '
    . as $m
    | [.[] | select(.isEntry)][0] as $entry
    | [$entry | recurse(.imports[]? | $m[.])] as $closure
    | ([.[] | (.file, .css[]?) | select(test("\\.(js|css)$")) | "all \(.)"]
      + [($closure[].file, $closure[].css[]?) | "initial \(.)"]
      + [$entry.dynamicImports[]? | $m[.] | (.file, .css[]?) | "route \(.)"])
    | unique[]' "$a/dist/.vite/manifest.json" >"$r/vite/list.txt"
  lazy_bytes "$a/bakefs-out" "$r/bakefs/list.txt" >"$r/bakefs/files.txt"
  lazy_bytes "$a/dist" "$r/vite/list.txt" >"$r/vite/files.txt"
  : >"$WORK/lazy-warnings.txt"
  out "| tool | JS files | CSS files | initial load, brotli | whole output (JS + CSS), brotli |" "|---|---:|---:|---:|---:|"
  lazy_report bakefs "$r/bakefs" "$a/bakefs-out/index.html"
  lazy_report vite "$r/vite" "$a/dist/index.html"
  out "" "Initial load, vite / bakefs: $(awk -v v="$(cat "$r/vite/initial.br")" -v b="$(cat "$r/bakefs/initial.br")" 'BEGIN { printf "%.2f×", v / b }') (brotli); cold build, vite / bakefs: $(cell vite-build 4 "$r/table.md")." "" \
    "- initial load by the manifest: bakefs $(lazy_names initial "$r/bakefs"); vite $(lazy_names initial "$r/vite")" \
    "- lazy routes (the entry's dynamic imports, with their style sheets): bakefs $(lazy_names route "$r/bakefs"); vite $(lazy_names route "$r/vite")" \
    "- what index.html names: bakefs $(paste -sd' ' "$r/bakefs/page.txt"); vite $(paste -sd' ' "$r/vite/page.txt")" ""
  rl=$(cell vite-build 4 "$r/table.md")
  goal "| 11. React 19 app with lazy routes, cold vite build / bakefs build (goal > 1×) | $rl, peak RSS $(cell bakefs-build 5 "$r/table.md") vs $(cell vite-build 5 "$r/table.md") | $(met "$(num "$rl") > 1") |"
  if [ -s "$WORK/lazy-warnings.txt" ]; then
    out "**Warning:**" "" "$(sed 's/^/- /' "$WORK/lazy-warnings.txt")" ""
  else
    out "Checks passed: no lazy route's chunk, style sheet or marker string is in either initial load, and every file each index.html names exists." ""
  fi
fi

if want delta; then
  log "delta: release pairs from npm"
  out "### Delta updates: real release pairs from npm (bench/delta)" ""
  go run ./bench/delta -bakefs "$BAKEFS" -peers "$PEERS/delta" -rounds "$ROUNDS" >>"$RESULTS"
  out ""
fi

if [ -s "$WORK/goals.md" ]; then
  out "### Goals (this run)" "" "| goal | measured | met |" "|---|---|---|"
  cat "$WORK/goals.md" >>"$RESULTS"
  out "" "For a goal not met, its section above ends with the top lines of the bakefs command's profiles; bench/README.md (\"Goals not met, and why\") reads them." ""
fi

# Temporary paths read better as $WORK, peers as $BENCH_PEERS.
sed -i -e "s|$WORK|\$WORK|g" -e "s|$PEERS|\$BENCH_PEERS|g" "$RESULTS"
cat "$RESULTS"
if [ -n "${BENCH_RESULTS:-}" ]; then cp "$RESULTS" "$BENCH_RESULTS"; fi
