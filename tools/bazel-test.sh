#!/usr/bin/env bash
# bazel-test.sh builds and tests the repository with Bazel, offline, and
# checks what the Bazel rules promise:
#
#  0. the Starlark is buildifier-clean, and the BUILD files of the Go
#     packages are what Gazelle writes;
#  1. bazel build //... and bazel test //... pass (tests/bazel holds the
#     end-to-end go_test of chained asset_transform targets and
#     go_embed_data);
#  2. the same sources and steps through the bakefs CLI give byte-identical
#     output trees, manifests and generated packages; examples/minimal and
#     examples/webapp built by Bazel give the package that bakefs build
#     writes from their bakefs.toml, byte for byte;
#  3. bad input fails with a message that names the target and the
#     attribute, or the file, line and column;
#  4. a build in a fresh output base against a remote cache executes no
#     transform or embed action: nginx (Debian's, installed by
#     tools/nginx-setup.sh) serves, over Bazel's HTTP cache protocol on a
#     loopback address, the disk cache that every build with
#     .bazelrc.offline fills;
#  5. a workspace outside the repository, made from rules/README.md, builds
#     and tests with the rules from this checkout, from a release archive
#     and with a prebuilt tool (tools/bazel-consumer-test.sh, whose checks
#     count in the total).
#
# It runs tools/bazel-setup.sh first, prints the timings of the first build,
# a no-change rebuild and the remote-cache build, ends with a line
# "bazel: N passed, M failed", and exits non-zero if a check failed. Bazel
# servers it starts are shut down on exit. The builds and tests run in the
# workspace's usual output base, so a second run is incremental.
#
# Usage: tools/bazel-test.sh
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
tools/bazel-setup.sh

cache="${BAKEFS_BAZEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/bakefs-bazel}"
disk_cache="$cache/disk-cache"
work="$(mktemp -d "${TMPDIR:-/tmp}/bakefs-bazel-test.XXXXXX")"
fresh_base="$work/fresh-output-base"
server_pid=""

passed=0
failed=0
pass() { passed=$((passed + 1)); printf 'ok   %s\n' "$*"; }
fail() { failed=$((failed + 1)); printf 'FAIL %s\n' "$*"; }
note() { printf '\n== %s\n' "$*"; }

cleanup() {
	set +e
	bazel shutdown 2>/dev/null
	if [ -d "$fresh_base" ]; then
		bazel --output_base="$fresh_base" shutdown 2>/dev/null
		chmod -R u+w "$fresh_base" 2>/dev/null
	fi
	if [ -n "$server_pid" ]; then
		kill "$server_pid" 2>/dev/null
		wait "$server_pid" 2>/dev/null
		cat "$work/nginx/error.log" 2>/dev/null
	fi
	rm -rf "$work"
}
trap cleanup EXIT
trap 'printf "bazel-test: command failed at line %s: %s\n" "$LINENO" "$BASH_COMMAND" >&2' ERR

# seconds CMD... runs CMD and stores its wall time in $secs.
seconds() {
	local start end status=0
	start="$(date +%s.%N)"
	"$@" || status=$?
	end="$(date +%s.%N)"
	secs="$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')"
	return "$status"
}

# Starlark style: buildifier's formatting and lint warnings, on the files
# of the rules and their tests.
note "Starlark (buildifier)"
GOBIN="$work/bin" GOFLAGS=-mod=mod go install \
	github.com/bazelbuild/buildtools/buildifier@v0.0.0-20260904073137-eaa4d125b423
starlark=(WORKSPACE BUILD.bazel deps.bzl go_deps.bzl rules tests/bazel tools/bazel
	examples/minimal/BUILD.bazel examples/webapp/BUILD.bazel)
# The consumer workspace's BUILD file is a template, checked as a BUILD file.
if "$work/bin/buildifier" -mode=check -lint=warn -r "${starlark[@]}" >"$work/buildifier.log" 2>&1 &&
	"$work/bin/buildifier" -mode=check -lint=warn -type=build tests/bazel/consumer/BUILD.in >>"$work/buildifier.log" 2>&1; then
	pass "buildifier: formatted, no lint warnings"
else
	head -20 "$work/buildifier.log"
	fail "buildifier reports problems"
fi

note "BUILD files of the Go packages"
if tools/bazel-gazelle.sh -mode=diff >"$work/gazelle.diff" 2>&1; then
	pass "BUILD files are up to date with the Go sources"
else
	grep -v '^bazel-setup' "$work/gazelle.diff" | head -40
	fail "BUILD files are stale: run tools/bazel-gazelle.sh"
fi

# go_deps.bzl declares each module at go.mod's version, with go.sum's sum,
# and every module that a package Bazel builds needs (the packages Gazelle
# covers, their tests, and the examples), and no other. The runtime's
# module, fs/, is replaced by its directory: Bazel builds it as //fs.
note "go_deps.bzl and go.mod"
want_modules="$(go list -e -deps -test -f '{{with .Module}}{{if not .Main}}{{if and .Replace (eq .Replace.Version "")}}{{else}}{{.Path}}{{end}}{{end}}{{end}}' \
	$(go list -e ./... | grep -v -e /bench -e /tests/) | sort -u)"
have_modules="$(awk -F'"' '/importpath = / { print $2 }' go_deps.bzl | sort -u)"
if [ "$want_modules" = "$have_modules" ]; then
	pass "go_deps.bzl lists the $(wc -l <<<"$have_modules") modules that the Bazel-built packages import"
else
	fail "go_deps.bzl and the modules of the Bazel-built packages differ (< needed, > listed): $(diff <(echo "$want_modules") <(echo "$have_modules") | grep '^[<>]' | tr '\n' ' ')"
fi
stale=""
while read -r importpath version sum; do
	want="$(go list -m -f '{{.Version}}' "$importpath" 2>/dev/null || true)"
	if [ "$want" != "$version" ] || ! grep -qF "$importpath $version $sum" go.sum; then
		stale="$stale $importpath@$version(go.mod: ${want:-none})"
	fi
done < <(awk -F'"' '
	/importpath = / { p = $2 } /sum = / { s = $2 } /version = / { print p, $2, s }' go_deps.bzl)
if [ -z "$stale" ]; then
	pass "go_deps.bzl matches go.mod and go.sum"
else
	fail "go_deps.bzl is out of step with go.mod or go.sum:$stale"
fi

# Results of actions that ran before the disk cache was configured are not
# in it: a workspace built then is cleaned, so that its actions run again.
if [ -z "$(ls -A "$disk_cache/ac" 2>/dev/null)" ]; then
	bazel clean
fi

note "bazel build //..."
if seconds bazel build //... >"$work/build.log" 2>&1; then
	pass "bazel build //... (${secs}s)"
	first_build="$secs"
else
	tail -40 "$work/build.log"
	fail "bazel build //..."
	exit 1
fi

note "bazel test //..."
if bazel test //... >"$work/test.log" 2>&1; then
	pass "bazel test //..."
else
	fail "bazel test //..."
fi
grep -E '^//.* (PASSED|FAILED|NO STATUS|FLAKY|TIMEOUT)' "$work/test.log" || tail -40 "$work/test.log"

note "no-change rebuild"
seconds bazel build //... >"$work/rebuild.log" 2>&1
rebuild="$secs"
if grep -q 'INFO: 1 process: 1 internal' "$work/rebuild.log" ||
	grep -q 'INFO: 0 processes' "$work/rebuild.log"; then
	pass "no-change rebuild executed nothing (${rebuild}s)"
else
	grep 'processes' "$work/rebuild.log"
	fail "no-change rebuild executed actions"
fi

# The CLI on the same sources and steps as tests/bazel/BUILD.bazel.
note "CLI and Bazel give the same bytes"
bazel_bin="$(bazel info bazel-bin 2>/dev/null)"
bin="$bazel_bin/tests/bazel"
go build -o "$work/bakefs" ./cmd/bakefs
cli="$work/cli"
web="tests/bazel/web"
(
	set -e
	b() { "$work/bakefs" transform --no-cache "$@" 2>/dev/null; }
	# asset_transform leaves references as they are (--no-rewrite); the
	# transform of go_embed_data that merges its sources rewrites them.
	b --no-rewrite --out "$cli/js_bundle" --file "js/app.ts=$web/js/app.ts" --step bundle:format=esm
	b --no-rewrite --out "$cli/js_min" --tree "$cli/js_bundle" --step minify
	b --no-rewrite --out "$cli/ts" --file "js/standalone.ts=$web/js/standalone.ts" --step typescript
	b --no-rewrite --out "$cli/img_resized" --file "img/photo.jpg=$web/img/photo.jpg" --step resize:width=64
	b --no-rewrite --out "$cli/site" --file "index.html=$web/index.html" --tree "$cli/img_resized" \
		--tree "$cli/js_min" --tree "$cli/ts" --step gzip --step br --step hash
	b --out "$cli/assets_tree" --tree "$cli/site"
	b --out "$cli/mixed_tree" --file "index.html=$web/index.html" --tree "$cli/js_min" \
		--compress gzip,zstd --hash
	b --out "$cli/rooted_tree" --file "css/rooted.css=$web/css/rooted.css" \
		--file "img/photo.jpg=$web/img/photo.jpg" --hash --base /static/ --strict
	"$work/bakefs" embed --tree "$cli/assets_tree" --out "$cli/assets_gen" --package assets \
		--import-path github.com/bakefs/bakefs/tests/bazel/assets 2>/dev/null
	"$work/bakefs" embed --tree "$cli/mixed_tree" --out "$cli/mixed_gen" --package mixed \
		--import-path github.com/bakefs/bakefs/tests/bazel/mixed 2>/dev/null
) || fail "the CLI chain failed"
for tree in js_bundle js_min ts img_resized site; do
	if diff -r "$cli/$tree" "$bin/$tree" >"$work/diff.txt" 2>&1; then
		pass "tree $tree (files and bakefs-manifest.json) identical"
	else
		head -20 "$work/diff.txt"
		fail "tree $tree differs"
	fi
done
# go_embed_data's merges: mixed (compress and hash), rooted (base and
# strict, which the CLI gets as --base and --strict).
for tree in mixed rooted; do
	if diff -r "$cli/${tree}_tree" "$bin/${tree}_gen_tree" >"$work/diff.txt" 2>&1; then
		pass "tree merged by go_embed_data ($tree) identical"
	else
		head -20 "$work/diff.txt"
		fail "tree merged by go_embed_data ($tree) differs"
	fi
done
for pkg in assets_gen mixed_gen; do
	if cmp "$cli/$pkg/bakefs_embed.go" "$bin/$pkg/bakefs_embed.go" &&
		diff -r "$cli/$pkg/_data" "$bin/$pkg/_data" >"$work/diff.txt" 2>&1; then
		pass "generated package $pkg (bakefs_embed.go and _data) identical"
	else
		head -20 "$work/diff.txt"
		fail "generated package $pkg differs"
	fi
done

# The minimal example: Bazel's go_embed_data and bakefs build (whose
# package is committed in examples/minimal/assets) write the same bytes.
minimal="$bazel_bin/examples/minimal/assets_gen"
if cmp "$minimal/bakefs_embed.go" examples/minimal/assets/bakefs_embed.go &&
	cmp "$minimal/bakefs-manifest.tsv" examples/minimal/assets/bakefs-manifest.tsv &&
	diff -r "$minimal/_data" examples/minimal/assets/_data >"$work/diff.txt" 2>&1; then
	pass "examples/minimal: the package Bazel generates is the one bakefs build committed"
else
	head -20 "$work/diff.txt"
	fail "examples/minimal: Bazel's package differs from examples/minimal/assets"
fi

# The web application: bakefs build of examples/webapp/bakefs.toml, run on
# a copy of its sources so that the work tree stays as it is, and
# go_embed_data of the asset_transform targets in examples/webapp/BUILD.bazel
# (one per rule of the project file, merged as they are). The two generated
# packages must be the same, byte for byte: the data files, the manifest
# table and the Go file.
note "examples/webapp: Bazel and bakefs build"
if bazel build //examples/webapp/... >"$work/webapp.log" 2>&1; then
	pass "bazel build //examples/webapp/..."
else
	tail -30 "$work/webapp.log"
	fail "bazel build //examples/webapp/..."
fi
ref="$work/webapp"
mkdir -p "$ref"
cp -R examples/webapp/bakefs.toml examples/webapp/web "$ref/"
"$work/bakefs" build -f "$ref/bakefs.toml" >"$work/webapp-cli.log" 2>&1 ||
	{ cat "$work/webapp-cli.log"; fail "bakefs build -f examples/webapp/bakefs.toml (on a copy)"; }
cli_pkg="$ref/internal/assets"
bzl_pkg="$bazel_bin/examples/webapp/assets_gen"
if [ -s "$cli_pkg/bakefs-manifest.tsv" ] &&
	diff -r "$cli_pkg/_data" "$bzl_pkg/_data" >"$work/webapp.diff" 2>&1 &&
	cmp -s "$cli_pkg/bakefs-manifest.tsv" "$bzl_pkg/bakefs-manifest.tsv" &&
	cmp -s "$cli_pkg/bakefs_embed.go" "$bzl_pkg/bakefs_embed.go"; then
	pass "examples/webapp: Bazel's package is the one bakefs build writes, byte for byte ($(find "$cli_pkg/_data" -type f | wc -l) data files, manifest table, Go file)"
else
	head -20 "$work/webapp.diff"
	diff "$cli_pkg/bakefs-manifest.tsv" "$bzl_pkg/bakefs-manifest.tsv" | cut -c1-200 | head -20 || true
	diff "$cli_pkg/bakefs_embed.go" "$bzl_pkg/bakefs_embed.go" | head -20 || true
	fail "examples/webapp: Bazel's package differs from the one bakefs build writes"
fi

# expect_error TARGET PATTERN... builds TARGET, which must fail, with every
# extended regular expression PATTERN in Bazel's output.
expect_error() {
	local target="$1" pattern missing=""
	shift
	if bazel build "$target" >"$work/bad.log" 2>&1; then
		fail "$target built; it must fail"
		return
	fi
	for pattern in "$@"; do
		grep -Eq -- "$pattern" "$work/bad.log" || missing="$missing [$pattern]"
	done
	if [ -z "$missing" ]; then
		pass "$target fails: $(grep -E -- "$2" "$work/bad.log" | tail -1 | cut -c1-160)"
	else
		grep -E 'ERROR|error' "$work/bad.log" | head -10
		fail "$target: error output lacks$missing"
	fi
}

note "bad input"
bad=//tests/bazel/bad
expect_error "$bad:unknown_step" "$bad:unknown_step" 'steps: minfy' 'unknown step "minfy"'
expect_error "$bad:malformed_step" "$bad:malformed_step" 'attribute steps: steps\[0\]'
expect_error "$bad:unknown_encoding" "$bad:unknown_encoding" 'attribute compress: unknown encoding .xz.'
expect_error "$bad:typescript_error" "$bad:typescript_error" 'broken\.ts:3:[0-9]+: error: '
expect_error "$bad:outside_prefix" "$bad:outside_prefix" 'attribute srcs: .*not below strip_prefix'
expect_error "$bad:bad_package" "$bad:bad_package_gen" 'attribute package: .bad-package.'
# go_embed_data gives strict to its merge: the missing file is an error.
expect_error "$bad:strict_missing" "$bad:strict_missing_gen" \
	'missing_ref\.css:3:[0-9]+: error: "img/none\.png" names img/none\.png, which is not in the output tree'

# A build in a new output base, with no disk cache, against the loopback
# server of the disk cache that the builds above filled: every action's
# result comes from it, so no transform or embed action runs. The patterns
# are narrower than //... because the convenience symlinks at the top of
# the workspace point into the usual output base.
note "remote cache hit in a fresh output base"
# nginx serves the disk cache read-only: GET /ac/<hash> and /cas/<hash>,
# which the disk cache keeps under a directory named by the hash's first
# two digits. (A cache that Bazel also writes takes PUT with nginx's
# dav_methods, as in the tests of bakefs's own remote cache.)
nginx="$(tools/nginx-setup.sh)"
mkdir -p "$work/nginx"
port=""
for _ in 1 2 3 4 5; do
	try=$((20000 + RANDOM % 20000))
	cat >"$work/nginx/nginx.conf" <<CONF
daemon off;
master_process off;
pid $work/nginx/nginx.pid;
events {}
http {
	access_log off;
	client_body_temp_path $work/nginx/body;
	proxy_temp_path $work/nginx/proxy;
	fastcgi_temp_path $work/nginx/fastcgi;
	uwsgi_temp_path $work/nginx/uwsgi;
	scgi_temp_path $work/nginx/scgi;
	server {
		listen 127.0.0.1:$try;
		root $disk_cache;
		location ~ "^/(ac|cas)/([0-9a-f]{2})([0-9a-f]{62})\$" {
			limit_except GET HEAD { deny all; }
			try_files /\$1/\$2/\$2\$3 /\$1/\$2\$3 =404;
		}
	}
}
CONF
	"$nginx" -c "$work/nginx/nginx.conf" -p "$work/nginx" -e "$work/nginx/error.log" &
	server_pid=$!
	for _ in $(seq 100); do
		if (exec 3<>"/dev/tcp/127.0.0.1/$try") 2>/dev/null; then
			port=$try
			break
		fi
		kill -0 "$server_pid" 2>/dev/null || break
		sleep 0.1
	done
	[ -n "$port" ] && break
	kill "$server_pid" 2>/dev/null || true
	wait "$server_pid" 2>/dev/null || true
	server_pid=""
done
[ -n "$port" ] || { cat "$work/nginx/error.log" >&2; echo "nginx did not start" >&2; exit 1; }
seconds bazel --output_base="$fresh_base" build --symlink_prefix=/ --disk_cache= \
	--remote_cache="http://127.0.0.1:$port" --remote_upload_local_results=false \
	--execution_log_json_file="$work/exec.json" //tests/bazel/... //cmd/... >"$work/fresh.log" 2>&1 ||
	{ tail -30 "$work/fresh.log"; fail "build in a fresh output base"; }
fresh="$secs"
grep 'processes' "$work/fresh.log" || true
# The log is a stream of JSON objects, one per spawn, with "mnemonic" and
# "remoteCacheHit".
read -r hits misses < <(awk '
	/"mnemonic":/ { m = $0; sub(/.*"mnemonic": *"/, "", m); sub(/".*/, "", m) }
	/"remoteCacheHit":/ { h = ($0 ~ /true/) }
	/^}/ { if (m ~ /^Bakefs/) { if (h) hit++; else miss++ } m = ""; h = 0 }
	END { print hit + 0, miss + 0 }' "$work/exec.json")
if [ "$hits" -gt 0 ] && [ "$misses" -eq 0 ]; then
	pass "fresh output base: $hits Bakefs actions, all remote cache hits, none executed (${fresh}s)"
else
	fail "fresh output base: $hits Bakefs actions from the cache, $misses executed"
fi
bazel --output_base="$fresh_base" shutdown

# A workspace outside the repository that uses the rules as rules/README.md
# says: from this checkout, from a release archive, with a prebuilt tool.
# It shares the disk cache that the builds above filled.
tools/bazel-consumer-test.sh 2>&1 | tee "$work/consumer.log" || true
if read -r _ consumer_passed _ consumer_failed _ < <(grep -E '^consumer: [0-9]+ passed, [0-9]+ failed$' "$work/consumer.log"); then
	passed=$((passed + consumer_passed))
	failed=$((failed + consumer_failed))
else
	fail "tools/bazel-consumer-test.sh did not finish"
fi

note "timings (2 cores)"
printf 'first build        bazel build //...                      %ss\n' "$first_build"
printf 'no-change rebuild  bazel build //...                      %ss\n' "$rebuild"
printf 'remote-cache hit   bazel build //tests/bazel/... //cmd/... (fresh output base)  %ss\n' "$fresh"

printf '\nbazel: %d passed, %d failed\n' "$passed" "$failed"
if [ "$failed" -ne 0 ]; then exit 1; fi
