#!/usr/bin/env bash
# release.sh writes the release archive of the Bazel rules (and everything
# else in the repository), bakefs-<version>.tar.gz, and prints the
# http_archive stanza that a WORKSPACE uses to fetch it.
#
# The archive is `git archive` of a commit, with every entry below
# bakefs-<version>/, compressed by gzip -n: the same commit gives the same
# bytes (git archive stamps entries with the commit's time, and gzip -n
# writes no name or time), so the sha256 printed here is the one users pin.
#
# By default the commit is HEAD and a work tree with changes is refused.
# --worktree archives the work tree as it is instead (tracked and untracked
# files that git does not ignore), as a commit made with HEAD's date and a
# fixed author, so that the tests can fetch what they test; such an archive
# is not for publishing.
#
# VERSION defaults to the tag at HEAD without its "v", or else to
# 0.0.0-<commit time, UTC>-<12 hex digits of the commit>.
#
# The runtime, fs/, is a Go module of its own, released with the tool at the
# same version: the commit gets two tags, vX.Y.Z (the tool's module and the
# archive) and fs/vX.Y.Z (the runtime's module, as the go command names a
# module in a subdirectory). For a release version X.Y.Z the script checks
# that fs/go.mod requires nothing and that the tool's go.mod requires
# github.com/bakefs/bakefs/fs vX.Y.Z (so that `go get` of the tool resolves
# the runtime it was tested with), and prints the two tags to push.
#
# Usage: tools/release.sh [--out DIR] [--url-base URL] [--worktree] [VERSION]
#   --out DIR       where to write the archive (default: dist)
#   --url-base URL  where the archive will be published, for the stanza
#                   (default: https://github.com/bakefs/bakefs/releases/download/v<VERSION>)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

die() { printf 'release: %s\n' "$*" >&2; exit 1; }
usage() { printf 'usage: tools/release.sh [--out DIR] [--url-base URL] [--worktree] [VERSION]\n' >&2; exit 2; }

out=dist
url_base=""
worktree=false
version=""
while [ "$#" -gt 0 ]; do
	case "$1" in
	--out) [ "$#" -ge 2 ] || usage; out="$2"; shift 2 ;;
	--url-base) [ "$#" -ge 2 ] || usage; url_base="${2%/}"; shift 2 ;;
	--worktree) worktree=true; shift ;;
	-*) usage ;;
	*) [ -z "$version" ] || usage; version="$1"; shift ;;
	esac
done

git rev-parse --verify -q HEAD >/dev/null || die "no commit to archive"
if $worktree; then
	# The work tree as a commit: a temporary index holding every file that
	# git does not ignore, written as a tree, committed with HEAD's date.
	index="$(mktemp "${TMPDIR:-/tmp}/bakefs-release-index.XXXXXX")"
	trap 'rm -f "$index"' EXIT
	GIT_INDEX_FILE="$index" git read-tree HEAD
	GIT_INDEX_FILE="$index" git add -A .
	tree="$(GIT_INDEX_FILE="$index" git write-tree)"
	date="$(git log -1 --format=%cd --date=raw HEAD)"
	commit="$(printf 'bakefs work tree\n' |
		GIT_AUTHOR_NAME=bakefs GIT_AUTHOR_EMAIL=release@bakefs.invalid GIT_AUTHOR_DATE="$date" \
			GIT_COMMITTER_NAME=bakefs GIT_COMMITTER_EMAIL=release@bakefs.invalid GIT_COMMITTER_DATE="$date" \
			git commit-tree "$tree" -p HEAD)"
else
	if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
		die "the work tree has changes that are not committed; commit them, or use --worktree for a test archive"
	fi
	commit="$(git rev-parse HEAD)"
fi

if [ -z "$version" ]; then
	if tag="$(git describe --tags --exact-match "$commit" 2>/dev/null)"; then
		version="${tag#v}"
	else
		version="0.0.0-$(TZ=UTC git log -1 --format=%cd --date=format-local:%Y%m%d%H%M%S "$commit")-$(git rev-parse --short=12 "$commit")"
	fi
fi
case "$version" in
*/* | *' '* | '') die "version $version: not a file name" ;;
esac
name="bakefs-$version"

runtime=github.com/bakefs/bakefs/fs
if grep -Eq '^[[:space:]]*require([[:space:]]|\(|$)' fs/go.mod; then
	die "fs/go.mod has a require directive; the runtime depends on the standard library only"
fi
release=false
if [[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
	release=true
	required="$(GOWORK=off GOFLAGS=-mod=mod go list -m -f '{{.Version}}' "$runtime")"
	if [ "$required" != "v$version" ]; then
		die "go.mod requires $runtime ${required:-(nothing)}, not v$version; run: go mod edit -require=$runtime@v$version, commit, and release that commit"
	fi
fi
[ -n "$url_base" ] || url_base="https://github.com/bakefs/bakefs/releases/download/v$version"

mkdir -p "$out"
archive="$out/$name.tar.gz"
git archive --format=tar --prefix="$name/" "$commit" | gzip -n -9 >"$archive.tmp"
mv "$archive.tmp" "$archive"
sha="$(sha256sum "$archive" | cut -c1-64)"

printf 'release: wrote %s (%s bytes) from %s\n' "$archive" "$(wc -c <"$archive")" "$commit" >&2
if $release; then
	printf 'release: tag the commit for the tool and the runtime, then push both tags:\n  git tag v%s %s && git tag fs/v%s %s\n  git push origin v%s fs/v%s\n' \
		"$version" "$commit" "$version" "$commit" "$version" "$version" >&2
fi
cat <<EOF
http_archive(
    name = "com_github_bakefs_bakefs",
    sha256 = "$sha",
    strip_prefix = "$name",
    urls = ["$url_base/$name.tar.gz"],
)
EOF
