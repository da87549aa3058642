#!/usr/bin/env bash
# bazel-consumer-test.sh builds and tests a workspace that uses bakefs's
# rules from outside this repository, the way rules/README.md tells a user
# to, offline:
#
#  1. it makes a workspace in a temporary directory: WORKSPACE and .bazelrc
#     are the blocks of rules/README.md marked "<!-- consumer-test: ... -->",
#     with the http_archive stanza replaced by a local_repository of this
#     checkout; tools/bazel-setup.sh --workspace writes its
#     .bazelrc.offline; the BUILD file and sources are tests/bazel/consumer
#     (a TypeScript bundle that imports a module and a stylesheet, a JPEG
#     srcset, go_embed_data, a go_binary, and a go_test that serves through
#     the program's handler and checks a br response);
#  2. bazel build //... and bazel test //... pass, and a no-change rebuild
#     executes nothing;
#  3. the same, fetching this repository as the release archive that
#     tools/release.sh writes (an http_archive with a file:// URL, the
#     stanza it prints), in the same output base;
#  4. the same with a prebuilt tool (go build ./cmd/bakefs, given to
#     bakefs_register_toolchains through an http_file: the README's block
#     marked "<!-- consumer-test: prebuilt -->" with the binary's sha256
#     and file:// URL), in a fresh output base: the tool's Go modules are never fetched, and the trees are
#     byte-identical to those the tool built from source writes.
#
# The builds share the disk cache of .bazelrc.offline with the repository's
# own builds, so the standard library and the Go modules built there are
# reused, and Bazel's repository cache (under the default output user root).
# With BAKEFS_CONSUMER_COLD=1 the builds of 1 and 4 run with no disk cache,
# to measure a cold build.
#
# It prints "ok"/"FAIL" lines and the timings, ends with a line
# "consumer: N passed, M failed", and exits non-zero if a check failed.
# The Bazel servers it starts are shut down, and the workspace and output
# bases removed, on exit.
#
# Usage: tools/bazel-consumer-test.sh
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
readme="$root/rules/README.md"
work="$(mktemp -d "${TMPDIR:-/tmp}/bakefs-consumer.XXXXXX")"
ws="$work/workspace"
bases=()

passed=0
failed=0
pass() { passed=$((passed + 1)); printf 'ok   %s\n' "$*"; }
fail() { failed=$((failed + 1)); printf 'FAIL %s\n' "$*"; }
note() { printf '\n== consumer: %s\n' "$*"; }
die() { printf 'bazel-consumer-test: %s\n' "$*" >&2; exit 1; }

cleanup() {
	set +e
	for base in "${bases[@]}"; do
		(cd "$ws" 2>/dev/null && bazel --output_base="$base" shutdown 2>/dev/null)
		chmod -R u+w "$base" 2>/dev/null
	done
	rm -rf "$work"
}
trap cleanup EXIT
trap 'printf "bazel-consumer-test: command failed at line %s: %s\n" "$LINENO" "$BASH_COMMAND" >&2' ERR

# seconds CMD... runs CMD and stores its wall time in $secs.
seconds() {
	local start end status=0
	start="$(date +%s.%N)"
	"$@" || status=$?
	end="$(date +%s.%N)"
	secs="$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')"
	return "$status"
}

# readme_block NAME prints the fenced block that follows the line
# "<!-- consumer-test: NAME -->" in rules/README.md.
readme_block() {
	awk -v marker="<!-- consumer-test: $1 -->" '
		$0 == marker { found = 1; next }
		found == 1 && /^```/ { found = 2; next }
		found == 2 && /^```/ { exit }
		found == 2 { print }
		found == 1 && NF { exit 1 }' "$readme"
}

workspace_block="$(readme_block WORKSPACE)" || true
bazelrc_block="$(readme_block .bazelrc)" || true
prebuilt_block="$(readme_block prebuilt)" || true
[ -n "$workspace_block" ] || die "rules/README.md has no fenced block after <!-- consumer-test: WORKSPACE -->"
[ -n "$bazelrc_block" ] || die "rules/README.md has no fenced block after <!-- consumer-test: .bazelrc -->"
[ -n "$prebuilt_block" ] || die "rules/README.md has no fenced block after <!-- consumer-test: prebuilt -->"

# The README's http_archive call, from "http_archive(" to the next line
# that is ")" alone, is what make release prints; with_repository TEXT
# prints the README's WORKSPACE with that call replaced by TEXT.
with_repository() {
	REPLACEMENT="$1" awk '
		/^http_archive\($/ { skip = 1; print ENVIRON["REPLACEMENT"]; n++; next }
		skip && /^\)$/ { skip = 0; next }
		!skip { print }
		END { if (n != 1) exit 1 }' <<<"$workspace_block"
}

note "the README's WORKSPACE block"
stanza_keys() { grep -oE '^    [a-z_0-9]+ =' | tr -d ' =' | tr '\n' ' '; }
readme_keys="$(printf '%s\n' "$workspace_block" |
	awk '/^http_archive\($/ { s = 1; next } s && /^\)$/ { exit } s' | stanza_keys)"
if with_repository "" >/dev/null && [ "$readme_keys" = "name sha256 strip_prefix urls " ]; then
	pass "rules/README.md: one http_archive with name, sha256, strip_prefix, urls, as make release prints"
else
	fail "rules/README.md: the WORKSPACE block needs one http_archive( ... ) with name, sha256, strip_prefix, urls (has: $readme_keys)"
fi

# make_workspace TEXT writes the workspace: the README's WORKSPACE with the
# http_archive call replaced by TEXT, its .bazelrc, the offline settings,
# and the sources of tests/bazel/consumer.
make_workspace() {
	rm -rf "$ws"
	mkdir -p "$ws"
	with_repository "$1" >"$ws/WORKSPACE" || die "cannot replace the http_archive call in the README's WORKSPACE"
	printf '%s\n' "$bazelrc_block" >"$ws/.bazelrc"
	cp -R tests/bazel/consumer/web tests/bazel/consumer/main.go tests/bazel/consumer/main_test.go "$ws/"
	cp tests/bazel/consumer/BUILD.in "$ws/BUILD.bazel"
	mkdir -p "$ws/web/img"
	cp tests/bazel/web/img/photo.jpg "$ws/web/img/photo.jpg"
	tools/bazel-setup.sh --workspace "$ws" 2>"$work/setup.log" || { cat "$work/setup.log"; die "tools/bazel-setup.sh --workspace failed"; }
}

cold_flags=()
if [ "${BAKEFS_CONSUMER_COLD:-}" = 1 ]; then
	cold_flags=(--disk_cache=)
fi

# build_and_test LABEL BASE builds and tests //... of the workspace in
# output base BASE, and stores the build's wall time in $build_secs.
build_and_test() {
	local label="$1" base="$2"
	bases+=("$base")
	if (cd "$ws" && seconds bazel --output_base="$base" build "${cold_flags[@]}" //... \
		>"$work/build.log" 2>&1 && printf '%s' "$secs" >"$work/secs"); then
		build_secs="$(cat "$work/secs")"
		pass "$label: bazel build //... (${build_secs}s)"
	else
		tail -40 "$work/build.log"
		fail "$label: bazel build //..."
		build_secs=""
		return 1
	fi
	if (cd "$ws" && bazel --output_base="$base" test "${cold_flags[@]}" //... >"$work/test.log" 2>&1); then
		pass "$label: bazel test //... ($(grep -cE '^//.* PASSED' "$work/test.log") passed)"
	else
		grep -E '^//|FAIL|---' "$work/test.log" | head -30
		tail -20 "$work/test.log"
		fail "$label: bazel test //..."
	fi
}

# no_change LABEL BASE rebuilds //..., which must execute nothing.
no_change() {
	(cd "$ws" && seconds bazel --output_base="$2" build //... >"$work/rebuild.log" 2>&1 &&
		printf '%s' "$secs" >"$work/secs") || true
	rebuild_secs="$(cat "$work/secs")"
	if grep -qE 'INFO: (1 process: 1 internal|0 processes)' "$work/rebuild.log"; then
		pass "$1: no-change rebuild executed nothing (${rebuild_secs}s)"
	else
		grep 'processes' "$work/rebuild.log" || tail -20 "$work/rebuild.log"
		fail "$1: no-change rebuild executed actions"
	fi
}

# save_trees DIR copies the output trees of the last build to DIR.
save_trees() {
	local bin
	bin="$(cd "$ws" && bazel --output_base="$base" info bazel-bin 2>/dev/null)"
	mkdir -p "$1"
	cp -R "$bin/script" "$bin/photos" "$bin/assets_gen_tree" "$1/"
}

same_trees() {
	if diff -r "$work/trees-source" "$1" >"$work/trees.diff" 2>&1; then
		pass "$2: output trees identical to those of the tool built from source"
	else
		head -20 "$work/trees.diff"
		fail "$2: output trees differ from those of the tool built from source"
	fi
}

# 1. The checkout as a local_repository.
note "local_repository of this checkout"
make_workspace "local_repository(
    name = \"com_github_bakefs_bakefs\",
    path = \"$root\",
)"
base="$work/base-source"
source_secs=""
if build_and_test "local_repository" "$base"; then
	source_secs="$build_secs"
	no_change "local_repository" "$base"
	source_rebuild="$rebuild_secs"
	save_trees "$work/trees-source"
fi
# Debian's system bazelrc sets --sandbox_debug, which keeps every action's
# sandbox after the build (and prints its debug log); .bazelrc.offline
# turns it off.
kept=0
if [ -d "$work/base-source/sandbox" ]; then
	kept="$(find "$work/base-source/sandbox" -mindepth 2 -maxdepth 2 -type d | wc -l)"
fi
if [ "$kept" -eq 0 ]; then
	pass "local_repository: no sandbox kept after the build (--nosandbox_debug)"
else
	fail "local_repository: $kept sandboxes kept after the build: --sandbox_debug is on"
fi

# 2. The release archive, fetched over file:// with the stanza that
# tools/release.sh prints, in the same output base.
note "release archive (http_archive, file://)"
mkdir -p "$work/release"
if stanza="$(tools/release.sh --worktree --out "$work/release" --url-base "file://$work/release" 2>"$work/release.log")"; then
	archive="$(ls "$work/release"/bakefs-*.tar.gz)"
	pass "tools/release.sh: $(basename "$archive"), $(wc -c <"$archive") bytes"
	make_workspace "$stanza"
	if build_and_test "release archive" "$base"; then
		archive_secs="$build_secs"
		save_trees "$work/trees-archive"
		same_trees "$work/trees-archive" "release archive"
	fi
else
	cat "$work/release.log"
	fail "tools/release.sh --worktree"
fi

# 3. A prebuilt tool, in a fresh output base.
note "prebuilt tool"
mkdir -p "$work/prebuilt"
GOFLAGS=-buildvcs=false CGO_ENABLED=0 go build -trimpath -o "$work/prebuilt/bakefs" ./cmd/bakefs ||
	die "go build ./cmd/bakefs failed"
prebuilt_sha="$(sha256sum "$work/prebuilt/bakefs" | cut -c1-64)"
make_workspace "local_repository(
    name = \"com_github_bakefs_bakefs\",
    path = \"$root\",
)"
# The README's prebuilt block, with this binary's sha256 and file:// URL,
# in place of the WORKSPACE's bakefs_register_toolchains call.
prebuilt_text="$(printf '%s\n' "$prebuilt_block" | sed \
	-e "s|^    sha256 = \".*\",\$|    sha256 = \"$prebuilt_sha\",|" \
	-e "s|^    urls = \[.*\],.*\$|    urls = [\"file://$work/prebuilt/bakefs\"],|")"
if ! grep -qF "$prebuilt_sha" <<<"$prebuilt_text" || ! grep -qF "file://$work/prebuilt/bakefs" <<<"$prebuilt_text" ||
	! grep -q '^bakefs_register_toolchains(.*prebuilt = ' <<<"$prebuilt_text"; then
	die "the README's prebuilt block needs an http_file with sha256 = and urls = lines, and a bakefs_register_toolchains(..., prebuilt = ...) line"
fi
PREBUILT="$prebuilt_text" awk '
	/^bakefs_register_toolchains\(/ { print ENVIRON["PREBUILT"]; n++; next }
	{ print }
	END { if (n != 1) exit 1 }' "$ws/WORKSPACE" >"$ws/WORKSPACE.new" ||
	die "the README's WORKSPACE needs one bakefs_register_toolchains( line for the prebuilt block to replace"
mv "$ws/WORKSPACE.new" "$ws/WORKSPACE"
base="$work/base-prebuilt"
prebuilt_secs=""
if build_and_test "prebuilt tool" "$base"; then
	prebuilt_secs="$build_secs"
	no_change "prebuilt tool" "$base"
	prebuilt_rebuild="$rebuild_secs"
	save_trees "$work/trees-prebuilt"
	same_trees "$work/trees-prebuilt" "prebuilt tool"
	fetched="$(ls "$base/external" | grep -E '^(com_github_evanw_esbuild|org_golang_x_image|com_github_disintegration_imaging)$' || true)"
	if [ -z "$fetched" ] && [ -e "$base/external/bakefs_tool/bakefs" ]; then
		pass "prebuilt tool: the rules ran @bakefs_tool//:bakefs, and esbuild, x/image and imaging were never fetched"
	else
		fail "prebuilt tool: fetched $(echo $fetched) (bakefs_tool: $(ls "$base/external/bakefs_tool" 2>&1 | tr '\n' ' '))"
	fi
fi

note "consumer timings (2 cores${cold_flags:+, no disk cache})"
printf 'tool from source  bazel build //... (new output base)   %ss\n' "${source_secs:-?}"
printf 'tool from source  no-change rebuild                     %ss\n' "${source_rebuild:-?}"
printf 'release archive   bazel build //... (same output base)  %ss\n' "${archive_secs:-?}"
printf 'prebuilt tool     bazel build //... (new output base)   %ss\n' "${prebuilt_secs:-?}"
printf 'prebuilt tool     no-change rebuild                     %ss\n' "${prebuilt_rebuild:-?}"

printf '\nconsumer: %d passed, %d failed\n' "$passed" "$failed"
if [ "$failed" -ne 0 ]; then exit 1; fi
