import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";
import { runChild } from "../testing/children.ts";

/*
 * src/cli/plain.mjs keeps the bundle it made for `bin/entente adjudicate` (and the other plain
 * commands) between starts, and uses it only while every source it was made from is unchanged.
 */

const BIN = fileURLToPath(new URL("../../bin/entente", import.meta.url));
const cache = mkdtempSync(join(tmpdir(), "entente-plain-cache-"));
after(() => rmSync(cache, { recursive: true, force: true }));

const LINE = JSON.stringify({
  variant: "classical",
  phase: "S1901M",
  units: { france: ["A par"] },
  orders: { france: ["A par - bur"] },
});

/** One position through the contract, with the test's cache: its answer. */
async function adjudicate(): Promise<string> {
  const r = await runChild(BIN, ["adjudicate"], {
    input: `${LINE}\n`,
    env: { ...process.env, ENTENTE_PLAIN_CACHE: cache },
    timeoutMs: 180_000,
  });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

const kept = () => readdirSync(cache).filter((f) => f.endsWith(".mjs"));

/** The hashes of the sources a kept bundle was made from: its first line. */
const PREFIX = "// entente-plain sources: ";
function sourcesOf(bundle: string): Record<string, string> {
  const text = readFileSync(bundle, "utf8");
  assert.ok(text.startsWith(PREFIX), "the bundle begins with its sources' hashes");
  return JSON.parse(text.slice(PREFIX.length, text.indexOf("\n")));
}

/** The sources' times and sizes a kept bundle was made from: its third line. */
const STATS = "// entente-plain stats: ";
function statsOf(bundle: string): Record<string, string> {
  const line = readFileSync(bundle, "utf8").split("\n")[2] ?? "";
  assert.ok(line.startsWith(STATS), "the bundle's third line holds its sources' times and sizes");
  return JSON.parse(line.slice(STATS.length));
}

/**
 * The kept bundle with other hashes written in its first line and no times and sizes in its
 * third (as if its sources had been edited since: each is hashed again at the next start).
 */
function rewriteSources(bundle: string, sources: Record<string, string>) {
  const [, chunks, , ...rest] = readFileSync(bundle, "utf8").split("\n");
  writeFileSync(
    bundle,
    [`${PREFIX}${JSON.stringify(sources)}`, chunks, `${STATS}{}`, ...rest].join("\n"),
  );
}

/**
 * The packages a kept bundle loads for a command: those imported by the modules read at its
 * start (the entry and the chunks it imports, and theirs) and by its command's chunk (the one
 * named after src/cli/COMMAND.ts) with its own imports.
 */
function packagesLoaded(bundlePath: string, command: string): string[] {
  const dir = join(bundlePath, "..");
  const chunk = readdirSync(join(dir, "chunks")).find((f) => f.startsWith(`${command}-`));
  assert.ok(chunk, `a chunk of its own for ${command}`);
  const seen = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(/^import\s[^;]*?from\s*"([^"]+)"|^import\s*"([^"]+)"/gms)) {
      const spec = (m[1] ?? m[2])!;
      const pkg = /node_modules\/((?:@[\w.-]+\/)?[\w.-]+)\//.exec(spec)?.[1];
      if (pkg) packages.add(pkg);
      else if (spec.startsWith(".")) visit(join(file, "..", spec));
    }
  };
  visit(bundlePath);
  visit(join(dir, "chunks", chunk));
  return [...packages].sort();
}

test("the bundle is kept, used while its sources are unchanged, and made again when one changes", async () => {
  const first = await adjudicate();
  assert.match(first, /"next":\{"variant":"classical","phase":"F1901M"/, "the contract answers");
  const [name] = kept();
  assert.ok(name, "the bundle is kept");
  const bundlePath = join(cache, name);
  const sources = sourcesOf(bundlePath);
  assert.ok("src/engine/adjudicate.ts" in sources, "the engine's sources are among those hashed");
  assert.ok("src/cli/main.ts" in sources);
  // The contract loads what it runs, not the server's or the mail gateway's packages (loading
  // those was half of each start's CPU time): the modules read at its start, and the chunk of
  // its command with what that chunk imports, name no package but the command line's.
  assert.deepEqual(packagesLoaded(bundlePath, "adjudicate"), ["commander"]);
  const made = statSync(bundlePath).ino;

  // A second start runs the kept bundle: the same answer, the bundle not written again.
  assert.equal(await adjudicate(), first);
  assert.equal(statSync(bundlePath).ino, made, "the kept bundle was used");

  // Each source's time and size are kept: a start that finds them as they were reads no source.
  assert.deepEqual(Object.keys(statsOf(bundlePath)).sort(), Object.keys(sources).sort());
  // Sources touched (their times not as kept) but not changed: hashed, and the bundle kept.
  rewriteSources(bundlePath, sources);
  assert.equal(await adjudicate(), first);
  assert.equal(statSync(bundlePath).ino, made, "the kept bundle was used after the hashes matched");

  // A source that no longer hashes as it did (as after an edit): bundled again, and kept anew.
  rewriteSources(bundlePath, { ...sources, "src/engine/adjudicate.ts": "0".repeat(64) });
  assert.equal(await adjudicate(), first);
  assert.notEqual(statSync(bundlePath).ino, made, "bundled again");
  assert.deepEqual(sourcesOf(bundlePath), sources, "the hashes are the sources' own again");

  // A source gone (a file removed or renamed): bundled again too.
  const again = statSync(bundlePath).ino;
  rewriteSources(bundlePath, { ...sources, "src/engine/no-such-file.ts": "0".repeat(64) });
  assert.equal(await adjudicate(), first);
  assert.notEqual(statSync(bundlePath).ino, again, "bundled again");
});
