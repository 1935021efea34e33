#!/usr/bin/env bash
# `npm run typecheck`: the server's and the web page's type checks (tsconfig.json and
# tsconfig.web.json) side by side. Each is one thread for most of its time, so on two cores
# the pair takes about as long as the longer one. Both always run to the end, their errors
# printed as they come; the exit status is 1 if either failed.
set -u
cd "$(dirname "$0")/.."
tsc --noEmit &
server=$!
tsc --noEmit -p tsconfig.web.json
web=$?
wait "$server"
server=$?
[ "$server" = 0 ] && [ "$web" = 0 ]
