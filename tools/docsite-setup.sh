#!/bin/sh
# docsite-setup.sh makes sure the static site that the browser test
# tests/browser (TestHashedDocSite) builds is installed: the HTML manual of
# colorzero, a Sphinx site with the Read the Docs theme (pages, style
# sheets with web fonts and images, scripts), shipped by Debian's
# python-colorzero-doc package under /usr/share/doc/python-colorzero-doc/html.
# It installs the package when the site is missing, which needs root and
# the Debian package archive.
#
# Usage: tools/docsite-setup.sh
set -eu

site=/usr/share/doc/python-colorzero-doc/html
if [ -f "$site/index.html" ]; then
	exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "docsite-setup: python-colorzero-doc is not installed, and installing it needs root: apt-get install python-colorzero-doc" >&2
	exit 1
fi
echo "docsite-setup: installing Debian's python-colorzero-doc package" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends python-colorzero-doc >&2 ||
	{ apt-get -o DPkg::Lock::Timeout=300 update -qq >&2 && apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends python-colorzero-doc >&2; }
[ -f "$site/index.html" ]
