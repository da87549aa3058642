#!/bin/sh
# codecs-setup.sh makes sure the reference command line codecs are
# installed, for the tests that check bakefs's encoders against them:
# Debian's brotli (the C tool of google/brotli; transform/compress
# TestBrotliMatchesC) and zstd (the C tool of facebook/zstd). It installs
# the missing packages, which needs root and the Debian package archive.
#
# Usage: tools/codecs-setup.sh
set -eu

missing=""
for tool in brotli zstd; do
	command -v "$tool" >/dev/null 2>&1 || missing="$missing $tool"
done
if [ -z "$missing" ]; then
	exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "codecs-setup: not installed:$missing; installing needs root: apt-get install$missing" >&2
	exit 1
fi
echo "codecs-setup: installing Debian's$missing" >&2
export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC2086 # $missing is a list of package names
apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends $missing >&2 ||
	{ apt-get -o DPkg::Lock::Timeout=300 update -qq >&2 && apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends $missing >&2; }
for tool in $missing; do
	command -v "$tool" >/dev/null
done
