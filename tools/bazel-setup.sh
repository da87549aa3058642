#!/usr/bin/env bash
# bazel-setup.sh prepares this checkout for Bazel builds on a machine whose
# only sources are Debian's packages and the Go module proxy.
#
# It installs Debian's Bazel and rule packages when they are missing, takes
# rules_go and Gazelle at the versions pinned in deps.bzl from the Go module
# proxy, applies the patches in tools/bazel/patches (the same ones deps.bzl
# applies for users who fetch the release archives), writes a stand-in
# rules_cc and a go_sdk repository over the local Go installation, and
# writes .bazelrc.offline (ignored by git, imported by .bazelrc) with the
# --override_repository and --repo_env lines that point Bazel at them, and
# a --disk_cache in the same directory.
#
# It is idempotent: a second run only checks stamps and rewrites
# .bazelrc.offline. The prepared repositories live in $BAKEFS_BAZEL_CACHE
# (default: ~/.cache/bakefs-bazel).
#
# Another workspace that uses the rules gets the same settings with
# --workspace DIR: the file is also written to DIR/.bazelrc.offline, which
# DIR/.bazelrc imports with "try-import %workspace%/.bazelrc.offline".
#
# Usage: tools/bazel-setup.sh [--workspace DIR]...
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache="${BAKEFS_BAZEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/bakefs-bazel}"
patches="$root/tools/bazel/patches"

rules_go_version=v0.34.0
gazelle_version=v0.26.0
debian_skylib=/usr/share/bazel/tools/skylib
debian_platforms=/usr/share/bazel/tools/platforms
debian_rules_java=/usr/share/bazel/rules/java

log() { printf 'bazel-setup: %s\n' "$*" >&2; }

# The workspaces to write .bazelrc.offline into: this one, and those given.
workspaces=("$root")
while [ "$#" -gt 0 ]; do
	case "$1" in
	--workspace)
		[ "$#" -ge 2 ] || { log "--workspace needs a directory"; exit 2; }
		[ -d "$2" ] || { log "--workspace $2: not a directory"; exit 2; }
		workspaces+=("$(cd "$2" && pwd)")
		shift 2
		;;
	*)
		log "unknown argument $1 (usage: tools/bazel-setup.sh [--workspace DIR]...)"
		exit 2
		;;
	esac
done

# Debian packages: Bazel 4.2.3 and the rule sets it cannot fetch offline.
missing=()
command -v bazel >/dev/null 2>&1 || missing+=(bazel-bootstrap)
[ -f "$debian_skylib/WORKSPACE" ] || missing+=(bazel-skylib)
[ -f "$debian_platforms/WORKSPACE" ] || missing+=(bazel-platforms)
[ -f "$debian_rules_java/WORKSPACE" ] || missing+=(bazel-rules-java)
command -v patch >/dev/null 2>&1 || missing+=(patch)
if [ "${#missing[@]}" -gt 0 ]; then
	log "installing ${missing[*]}"
	apt-get -o DPkg::Lock::Timeout=300 update -qq
	DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq "${missing[@]}" >/dev/null
fi

command -v go >/dev/null 2>&1 || { log "go is not on PATH"; exit 1; }
mkdir -p "$cache"

# stamp_ok DIR STAMP reports whether DIR was prepared with STAMP.
stamp_ok() { [ -f "$1/.bakefs-stamp" ] && [ "$(cat "$1/.bakefs-stamp")" = "$2" ]; }

# module_dir MODULE@VERSION prints the module's directory in the module
# cache, downloading it through GOPROXY first when needed.
module_dir() {
	local json dir
	json="$(cd / && GOFLAGS=-mod=mod go mod download -json "$1")"
	dir="$(printf '%s\n' "$json" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",*$/\1/p')"
	if [ -z "$dir" ] || [ ! -d "$dir" ]; then
		log "go mod download $1 gave no directory:"
		printf '%s\n' "$json" >&2
		exit 1
	fi
	printf '%s\n' "$dir"
}

# prepare NAME MODULE@VERSION PATCH copies the module into $cache/NAME and
# applies PATCH, unless that was already done with the same inputs.
prepare() {
	local name="$1" mod="$2" patch="$3" dest="$cache/$1" stamp tmp src
	stamp="$mod $(sha256sum "$patch" | cut -c1-64)"
	if stamp_ok "$dest" "$stamp"; then
		return
	fi
	log "preparing $name from $mod"
	src="$(module_dir "$mod")"
	tmp="$(mktemp -d "$cache/.$name.XXXXXX")"
	cp -R "$src/." "$tmp/"
	chmod -R u+w "$tmp"
	patch -p1 -s -d "$tmp" <"$patch"
	printf '%s\n' "$stamp" >"$tmp/.bakefs-stamp"
	rm -rf "$dest"
	mv "$tmp" "$dest"
}

prepare rules_go "github.com/bazelbuild/rules_go@$rules_go_version" \
	"$patches/rules_go-$rules_go_version-go1.26.patch"
prepare bazel_gazelle "github.com/bazelbuild/bazel-gazelle@$gazelle_version" \
	"$patches/bazel_gazelle-$gazelle_version-module-mode.patch"

# rules_cc: Bazel 4.2.3's default WORKSPACE suffix refers to it, and
# Debian's bazel-rules-cc needs a newer Bazel. This stand-in forwards the
# rules to Bazel's native ones.
rules_cc="$cache/rules_cc"
rules_cc_stamp="rules_cc native forwarder 1"
if ! stamp_ok "$rules_cc" "$rules_cc_stamp"; then
	log "writing the rules_cc stand-in"
	rm -rf "$rules_cc"
	mkdir -p "$rules_cc/cc"
	printf 'workspace(name = "rules_cc")\n' >"$rules_cc/WORKSPACE"
	: >"$rules_cc/BUILD.bazel"
	: >"$rules_cc/cc/BUILD.bazel"
	{
		printf '"""Forwards the C++ rules to the ones built into Bazel."""\n'
		for r in cc_binary cc_import cc_library cc_proto_library cc_test \
			cc_toolchain cc_toolchain_suite fdo_prefetch_hints fdo_profile \
			objc_import objc_library; do
			printf '\ndef %s(**kwargs):\n    native.%s(**kwargs)\n' "$r" "$r"
		done
	} >"$rules_cc/cc/defs.bzl"
	printf '%s\n' "$rules_cc_stamp" >"$rules_cc/.bakefs-stamp"
fi

# remote_coverage_tools: every test rule of Bazel 4.2.3 depends on it
# (for "bazel coverage"), and it is a download. This stand-in has the two
# targets, which fail with a message if coverage is ever asked for.
coverage="$cache/remote_coverage_tools"
coverage_stamp="remote_coverage_tools stand-in 1"
if ! stamp_ok "$coverage" "$coverage_stamp"; then
	log "writing the remote_coverage_tools stand-in"
	rm -rf "$coverage"
	mkdir -p "$coverage"
	printf 'workspace(name = "remote_coverage_tools")\n' >"$coverage/WORKSPACE"
	cat >"$coverage/unavailable.sh" <<-'EOF'
		#!/bin/sh
		echo "bazel coverage is not available: remote_coverage_tools is a stand-in written by tools/bazel-setup.sh" >&2
		exit 1
	EOF
	chmod +x "$coverage/unavailable.sh"
	cat >"$coverage/BUILD.bazel" <<-'EOF'
		package(default_visibility = ["//visibility:public"])

		sh_binary(
		    name = "coverage_report_generator",
		    srcs = ["unavailable.sh"],
		)

		sh_binary(
		    name = "lcov_merger",
		    srcs = ["unavailable.sh"],
		)
	EOF
	printf '%s\n' "$coverage_stamp" >"$coverage/.bakefs-stamp"
fi

# go_sdk: the Go installation on PATH, laid out as rules_go's
# go_local_sdk lays it out, so that WORKSPACE's go_register_toolchains
# needs no download.
goroot="$(go env GOROOT)"
goos="$(go env GOOS)"
goarch="$(go env GOARCH)"
sdk="$cache/go_sdk"
sdk_template="$cache/rules_go/go/private/BUILD.sdk.bazel"
sdk_stamp="$goroot $(go env GOVERSION) $goos $goarch $(sha256sum "$sdk_template" | cut -c1-64)"
if ! stamp_ok "$sdk" "$sdk_stamp"; then
	log "writing go_sdk for $goroot"
	rm -rf "$sdk"
	mkdir -p "$sdk"
	for entry in src pkg bin lib go.env VERSION; do
		if [ -e "$goroot/$entry" ]; then
			ln -s "$goroot/$entry" "$sdk/$entry"
		fi
	done
	printf 'workspace(name = "go_sdk")\n' >"$sdk/WORKSPACE"
	: >"$sdk/ROOT"
	sed -e "s/{goos}/$goos/g" -e "s/{goarch}/$goarch/g" -e 's/{exe}//g' \
		-e 's/{rules_go_repo_name}/io_bazel_rules_go/g' \
		"$sdk_template" >"$sdk/BUILD.bazel"
	printf '%s\n' "$sdk_stamp" >"$sdk/.bakefs-stamp"
fi

# go_repository and Gazelle's own tools download modules with the SDK's go
# command: the local module cache first, then the configured proxy.
modcache="$(go env GOMODCACHE)"
proxy="file://$modcache/cache/download"
goproxy="$(go env GOPROXY)"
if [ -n "$goproxy" ] && [ "$goproxy" != off ]; then
	proxy="$proxy,$goproxy"
fi

tmp_rc="$(mktemp "$cache/.bazelrc.offline.XXXXXX")"
{
	printf '# Written by tools/bazel-setup.sh; do not edit or commit.\n'
	for cmd in build fetch query sync; do
		printf '%s --override_repository=%s=%s\n' \
			"$cmd" io_bazel_rules_go "$cache/rules_go" \
			"$cmd" bazel_gazelle "$cache/bazel_gazelle" \
			"$cmd" go_sdk "$sdk" \
			"$cmd" rules_cc "$rules_cc" \
			"$cmd" remote_coverage_tools "$coverage" \
			"$cmd" rules_java "$debian_rules_java" \
			"$cmd" bazel_skylib "$debian_skylib" \
			"$cmd" platforms "$debian_platforms"
		printf '%s --repo_env=GOPROXY=%s\n' "$cmd" "$proxy"
		# go_repository and Gazelle's own tools then use the host's Go
		# build and module caches, so a new output base (another
		# workspace, a fresh clone) does not build Gazelle from nothing.
		printf '%s --repo_env=GO_REPOSITORY_USE_HOST_CACHE=1\n' "$cmd"
	done
	# Every action's result also goes to a disk cache, which other output
	# bases, clones and workspaces on this machine reuse (and which
	# tools/bazel-test.sh serves as a remote cache). A fixed PATH for
	# actions keeps their keys the same from one workspace to another.
	printf 'build --disk_cache=%s\n' "$cache/disk-cache"
	printf 'build --incompatible_strict_action_env\n'
	# Debian's /etc/bazel/bazelrc turns --sandbox_debug on, which keeps
	# every sandbox and prints some 40 lines per action.
	printf 'build --nosandbox_debug\n'
} >"$tmp_rc"
for ws in "${workspaces[@]}"; do
	cp "$tmp_rc" "$ws/.bazelrc.offline.tmp"
	mv "$ws/.bazelrc.offline.tmp" "$ws/.bazelrc.offline"
	log "wrote $ws/.bazelrc.offline"
done
rm -f "$tmp_rc"
