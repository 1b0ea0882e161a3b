#!/usr/bin/env bash
# The reference edge (edge/nginx.conf) is tested with Debian's nginx and its njs module (server/testing/edge.test.ts
# starts it as a child process; edge/edge.js runs in njs). Installs both when missing (as root, through apt-get),
# the module too when nginx is there without it; NGINX_PATH overrides the binary and NGINX_MODULES_PATH the
# modules' directory (then nothing is installed). Fast and silent when they are there already.
set -euo pipefail
path="${NGINX_PATH:-$(command -v nginx || echo /usr/sbin/nginx)}"
module="${NGINX_MODULES_PATH:-/usr/lib/nginx/modules}/ngx_http_js_module.so"
if [ -x "$path" ] && [ -f "$module" ]; then
  exit 0
fi
if [ -z "${NGINX_PATH:-}" ] && [ -z "${NGINX_MODULES_PATH:-}" ] && [ "$(id -u)" = "0" ] &&
  command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's nginx and its njs module for the edge tests (one time)..."
  export DEBIAN_FRONTEND=noninteractive
  # .ci/ensure-chromium.sh may be installing beside this script (.ci/test-all.sh starts both), and apt-get update
  # does not wait for another's lock: one at a time.
  exec 9>/run/lock/encore-apt.lock
  flock -w 900 9
  apt-get update -qq >/dev/null
  # The package's postinst starts the system nginx on port 80 where a service manager runs; the tests never
  # use that one (they start their own, under a temporary prefix). Installing both when one is there is a
  # no-op for that one.
  apt-get install -y -qq nginx libnginx-mod-http-js >/dev/null
  [ -x /usr/sbin/nginx ] && [ -f "$module" ] && exit 0
fi
echo "No nginx at $path or no njs module at $module. Install them (Debian: apt-get install -y nginx" \
  "libnginx-mod-http-js) or set NGINX_PATH and NGINX_MODULES_PATH." >&2
exit 1
