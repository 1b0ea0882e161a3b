#!/usr/bin/env bash
# The reference edge (edge/nginx.conf) is tested with Debian's nginx (server/testing/edge.test.ts starts it
# as a child process). Installs it when missing (as root, through apt-get); NGINX_PATH overrides the binary.
# Fast and silent when it is there already.
set -euo pipefail
path="${NGINX_PATH:-$(command -v nginx || echo /usr/sbin/nginx)}"
if [ -x "$path" ]; then
  exit 0
fi
if [ -z "${NGINX_PATH:-}" ] && [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's nginx for the edge tests (one time)..."
  export DEBIAN_FRONTEND=noninteractive
  # .ci/ensure-chromium.sh may be installing beside this script (.ci/test-all.sh starts both), and apt-get update
  # does not wait for another's lock: one at a time.
  exec 9>/run/lock/encore-apt.lock
  flock -w 900 9
  apt-get update -qq >/dev/null
  # The package's postinst starts the system nginx on port 80 where a service manager runs; the tests never
  # use that one (they start their own, under a temporary prefix).
  apt-get install -y -qq nginx >/dev/null
  [ -x /usr/sbin/nginx ] && exit 0
fi
echo "No nginx at $path. Install it (Debian: apt-get install -y nginx) or set NGINX_PATH." >&2
exit 1
