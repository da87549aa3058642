#!/bin/sh
# chromium-setup.sh makes sure Debian's Chromium is installed, for the
# browser test (tests/browser), with certutil (libnss3-tools), with which
# the delta test trusts its certificate in the browser's NSS database. It
# installs the packages when they are missing, which needs root and the
# Debian package archive. It prints the path of the browser and exits 0,
# or exits 1 when it cannot be had.
#
# Usage: tools/chromium-setup.sh
set -eu

find_chromium() {
	if [ -n "${CHROMIUM:-}" ] && [ -x "$CHROMIUM" ]; then
		echo "$CHROMIUM"
		return 0
	fi
	# The browser itself, not Debian's wrapper script, which only adds flags
	# from /etc/chromium.d that the test does not want.
	for p in /usr/lib/chromium/chromium /usr/bin/chromium /usr/bin/chromium-browser; do
		if [ -x "$p" ]; then
			echo "$p"
			return 0
		fi
	done
	return 1
}

if path=$(find_chromium) && command -v certutil >/dev/null; then
	echo "$path"
	exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
	echo "chromium-setup: Chromium or certutil is not installed, and installing them needs root: apt-get install chromium libnss3-tools" >&2
	exit 1
fi
echo "chromium-setup: installing Debian's chromium and libnss3-tools packages" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get -o DPkg::Lock::Timeout=300 update -qq >&2
apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends chromium fonts-dejavu-core libnss3-tools >&2

if path=$(find_chromium); then
	echo "$path"
	exit 0
fi
echo "chromium-setup: chromium was installed but no browser binary was found" >&2
exit 1
