#!/usr/bin/env bash
# bazel-gazelle.sh regenerates the BUILD.bazel files of the Go packages that
# Bazel builds, offline: it builds Gazelle from the copy that
# tools/bazel-setup.sh prepared, with the local go command, and runs it on
# the repository (the root BUILD.bazel says what it leaves out) or on the
# directories given. (bazel run //:gazelle does the same where the network
# is available.)
#
# Usage: tools/bazel-gazelle.sh [-mode=diff] [DIR...]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache="${BAKEFS_BAZEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/bakefs-bazel}"
"$root/tools/bazel-setup.sh"

gazelle="$cache/bin/gazelle"
stamp="$(cat "$cache/bazel_gazelle/.bakefs-stamp") $(go env GOVERSION)"
if [ ! -x "$gazelle" ] || [ "$(cat "$gazelle.stamp" 2>/dev/null)" != "$stamp" ]; then
	echo "bazel-gazelle: building gazelle" >&2
	(cd "$cache/bazel_gazelle" && GOFLAGS=-mod=mod GOTOOLCHAIN=local go build -o "$gazelle" ./cmd/gazelle)
	printf '%s\n' "$stamp" >"$gazelle.stamp"
fi

# Arguments starting with "-" are Gazelle flags (-mode=diff reports stale
# BUILD files and fails); the others are directories.
flags=()
dirs=()
for arg in "$@"; do
	case "$arg" in
	-*) flags+=("$arg") ;;
	*) dirs+=("$arg") ;;
	esac
done
if [ "${#dirs[@]}" -eq 0 ]; then
	# The whole repository, less what the root BUILD.bazel excludes.
	dirs=(.)
fi
cd "$root"
# Gazelle v0.26 does not know the packages that the standard library gained
# after it (slices, maps, iter, ...) and says so; it leaves them out, which
# is right for the standard library.
status=0
"$gazelle" -repo_root="$root" "${flags[@]}" "${dirs[@]}" 2>"$root/.gazelle.log" || status=$?
grep -Ev 'finding module path for import (slices|maps|iter|cmp|unique|weak|crypto/[a-z0-9]+|math/rand/v2|log/slog|structs)' \
	"$root/.gazelle.log" >&2 || true
rm -f "$root/.gazelle.log"
exit "$status"
