#!/usr/bin/env bash
# Runs a command (the test runner) with a private, throwaway PostgreSQL server for the judge's
# PostgreSQL tests: a new cluster in a temporary directory, on a free loopback port, trust
# authentication, database `test`; stopped and deleted when the command ends, however it ends.
# ENTENTE_TEST_DATABASE_URL points the tests at it, and ENTENTE_REQUIRE_PG=1 makes an
# unreachable server a failure rather than a skip.
#
# Where ENTENTE_TEST_DATABASE_URL is already set, that server is used and none is started.
# Where PostgreSQL's programs are missing (scripts/ensure-tools.sh installs Debian's
# `postgresql` package when run as root), the command runs without one and the PostgreSQL
# tests say they were skipped.
set -u

if [ -n "${ENTENTE_TEST_DATABASE_URL:-}" ]; then exec "$@"; fi

bindir=""
if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
  bindir=$(dirname "$(readlink -f "$(command -v pg_ctl)")")
else
  for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then bindir=$d; break; fi
  done
fi
if [ -z "$bindir" ]; then
  echo "with-postgres: no PostgreSQL programs (initdb, pg_ctl) found; PostgreSQL tests will be skipped. Install Debian's postgresql package." >&2
  exec "$@"
fi

# PostgreSQL refuses to run as root: as root, the cluster belongs to the `postgres` user.
as_owner() { "$@"; }
if [ "$(id -u)" = "0" ]; then
  if ! id postgres >/dev/null 2>&1; then
    useradd --system --home-dir /nonexistent --shell /usr/sbin/nologin postgres
  fi
  as_owner() { runuser -u postgres -- "$@"; }
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/entente-pg-XXXXXX")
chmod 700 "$dir"
[ "$(id -u)" = "0" ] && chown postgres "$dir"
port=$(node -e 'const s=require("node:net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')

# Stopped however the run ends, each wait bounded: pg_ctl's immediate stop (at most 30 s),
# then, should the server still run, SIGKILL to the postmaster (its children end when it
# does: each is in a process group of its own and watches it) and a bounded wait for it.
stop() {
  as_owner "$bindir/pg_ctl" -D "$dir/data" -m immediate -t 30 stop >/dev/null 2>&1
  pid=$(head -1 "$dir/data/postmaster.pid" 2>/dev/null)
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    echo "with-postgres: the server did not stop; killing it (pid $pid)" >&2
    kill -KILL "$pid" 2>/dev/null
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  fi
  rm -rf "$dir"
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

if ! as_owner "$bindir/initdb" -D "$dir/data" -U postgres -A trust --no-sync >"$dir/initdb.log" 2>&1; then
  echo "with-postgres: initdb failed; PostgreSQL tests will be skipped:" >&2
  cat "$dir/initdb.log" >&2
  "$@"
  exit $?
fi
# A throwaway cluster: no fsync (nothing in it outlives the run), loopback only, its socket in
# its own directory.
# A bound generous for a loaded machine; a server that did not start in it is stopped (trap).
if ! as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 180 \
  -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=200" \
  start >/dev/null; then
  echo "with-postgres: the server did not start; PostgreSQL tests will be skipped:" >&2
  cat "$dir/server.log" >&2
  "$@"
  exit $?
fi
if ! as_owner "$bindir/createdb" -h 127.0.0.1 -p "$port" -U postgres test; then
  echo "with-postgres: could not create database test; PostgreSQL tests will fail" >&2
fi
echo "with-postgres: a throwaway PostgreSQL on 127.0.0.1:$port (stopped after the run)" >&2

export ENTENTE_TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$port/test"
export ENTENTE_REQUIRE_PG=1
# The command runs as a child waited on, so that a signal to this script is handled at once
# (bash runs a trap only after the foreground command ends), in a process group of its own
# (setsid), so that the signal is passed on to all of it (the test runner and its test files);
# its end is awaited (bounded; SIGKILL then), then the cluster is stopped (the EXIT trap).
if command -v setsid >/dev/null 2>&1; then setsid "$@" & else "$@" & fi
cmd=$!
ended() {
  kill -"$1" -- -"$cmd" 2>/dev/null || kill -"$1" "$cmd" 2>/dev/null
  for _ in $(seq 300); do kill -0 "$cmd" 2>/dev/null || break; sleep 0.1; done
  kill -KILL -- -"$cmd" 2>/dev/null || kill -KILL "$cmd" 2>/dev/null
  exit "$2"
}
trap 'ended INT 130' INT
trap 'ended TERM 143' TERM
trap 'ended HUP 129' HUP
wait "$cmd"
