#!/bin/sh
# nginx-setup.sh makes sure nginx is installed, for the remote cache tests
# (internal/nginxtest starts it on loopback as a WebDAV cache). It installs
# Debian's nginx-light when no nginx is found, which needs root and the
# Debian package archive. It prints the path of nginx and exits 0, or exits
# 1 when none can be had. The installed service is not started.
#
# Usage: tools/nginx-setup.sh
set -eu

find_nginx() {
	if [ -n "${NGINX:-}" ] && [ -x "$NGINX" ]; then
		echo "$NGINX"
		return 0
	fi
	for p in $(command -v nginx 2>/dev/null) /usr/sbin/nginx; do
		if [ -x "$p" ]; then
			echo "$p"
			return 0
		fi
	done
	return 1
}

if path=$(find_nginx); then
	echo "$path"
	exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
	echo "nginx-setup: nginx is not installed, and installing it needs root: apt-get install nginx-light" >&2
	exit 1
fi
echo "nginx-setup: installing Debian's nginx-light package" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get -o DPkg::Lock::Timeout=300 update -qq >&2
# policy-rc.d keeps the package from starting the system's nginx on port 80.
printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d.bakefs
chmod +x /usr/sbin/policy-rc.d.bakefs
had_policy=0
[ -e /usr/sbin/policy-rc.d ] && had_policy=1
[ "$had_policy" = 1 ] || cp /usr/sbin/policy-rc.d.bakefs /usr/sbin/policy-rc.d
status=0
apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends nginx-light >&2 || status=$?
[ "$had_policy" = 1 ] || rm -f /usr/sbin/policy-rc.d
rm -f /usr/sbin/policy-rc.d.bakefs
[ "$status" = 0 ] || exit "$status"

if path=$(find_nginx); then
	echo "$path"
	exit 0
fi
echo "nginx-setup: nginx-light was installed but no nginx binary was found" >&2
exit 1
