#!/usr/bin/env bash
# Playwright cannot download its own browser here; the tests use Debian's Chromium in its headless
# shell build (package chromium-headless-shell: the same Chromium as the `chromium` package, without
# the desktop browser around it; Playwright's own headless runs use this build too). It needs about
# half the CPU of the full browser in headless mode, which on two cores is half the suite's time.
# Installs it when missing (as root, through apt-get); CHROMIUM_PATH overrides the location.
set -euo pipefail
path="${CHROMIUM_PATH:-/usr/bin/chromium-headless-shell}"
if [ -x "$path" ]; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's chromium-headless-shell for the browser tests (one time)..."
  export DEBIAN_FRONTEND=noninteractive
  # .ci/ensure-nginx.sh may be installing beside this script (.ci/test-all.sh starts both), and apt-get update
  # does not wait for another's lock: one at a time.
  exec 9>/run/lock/encore-apt.lock
  flock -w 900 9
  apt-get update -qq >/dev/null
  apt-get install -y -qq chromium-headless-shell >/dev/null
  [ -x "$path" ] && exit 0
fi
echo "No Chromium at $path. Install it (Debian: apt-get install -y chromium-headless-shell) or set CHROMIUM_PATH." >&2
exit 1
