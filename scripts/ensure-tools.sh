#!/bin/sh
# Tools the tests need beyond npm packages, installed from Debian's packages when missing:
# Chromium for the browser tests (Playwright drives /usr/bin/chromium), and PostgreSQL's
# server programs for the judge's PostgreSQL tests (scripts/with-postgres.sh starts a
# throwaway cluster of its own for each run; the package's own cluster is not used), and zsh,
# against which the shell-completion test checks the zsh script (src/cli/cli-definitions.test.ts).
# Runs before `npm test`; does nothing when everything is already there.
missing=""
[ -x /usr/bin/chromium ] || missing="$missing chromium"
have_pg=""
command -v initdb >/dev/null 2>&1 && have_pg=yes
for d in /usr/lib/postgresql/*/bin; do [ -x "$d/initdb" ] && have_pg=yes; done
[ -n "$have_pg" ] || missing="$missing postgresql"
command -v zsh >/dev/null 2>&1 || missing="$missing zsh"
[ -n "$missing" ] || exit 0

if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "ensure-tools: installing$missing from Debian's packages" >&2
  export DEBIAN_FRONTEND=noninteractive
  # shellcheck disable=SC2086
  apt-get install -y -qq $missing >/dev/null 2>&1 ||
    { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq $missing >/dev/null 2>&1; } ||
    echo "ensure-tools: could not install$missing; the tests that need them will fail or be skipped" >&2
else
  echo "ensure-tools: missing$missing; install Debian's packages (sudo apt-get install$missing)" >&2
fi
exit 0
