#!/bin/sh
# Tools the tests need beyond npm packages, installed from Debian's packages when missing:
# Chromium for the browser tests (Playwright drives /usr/bin/chromium).
# Runs before `npm test`; does nothing when everything is already there.
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "ensure-tools: installing chromium from Debian's packages" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq chromium >/dev/null 2>&1 ||
    { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq chromium >/dev/null 2>&1; } ||
    echo "ensure-tools: could not install chromium; browser tests will fail" >&2
else
  echo "ensure-tools: /usr/bin/chromium is missing; install Debian's chromium package (sudo apt-get install chromium)" >&2
fi
exit 0
