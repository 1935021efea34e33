import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

/*
 * The package as a library: a tiny consumer in another directory, with the package in its
 * node_modules (as `npm install` would link it), imports from "entente", plays a few random
 * phases on the typed path, saves and loads, and type-checks against the package's types.
 */

const root = fileURLToPath(new URL("..", import.meta.url));
const tsx = new URL("../node_modules/tsx/dist/loader.mjs", import.meta.url).href;

const CONSUMER = `import { loadGame, newGame, randomLegalOrders, rng, type TypedOrder, typedOrder } from "entente";

const game = newGame({ variant: "classical", rules: "datc" });
const r = rng(7);
const played: string[] = [];
while (game.phaseInfo.year <= 1902 && game.winner === null) {
  const orders: TypedOrder[] = randomLegalOrders(game, r).map((o) => typedOrder(game.board, o));
  played.push(game.step(orders).phase);
}
const again = loadGame(JSON.parse(JSON.stringify(game.save())));
const counts: number[] = [...again.centerCounts()];
console.log(JSON.stringify({ played, phase: again.phase, centres: counts.reduce((a, b) => a + b, 0) }));
`;

test("a consumer in another directory imports the package by name, with its types", () => {
  const dir = mkdtempSync(join(tmpdir(), "entente-consumer-"));
  try {
    mkdirSync(join(dir, "node_modules"));
    symlinkSync(root, join(dir, "node_modules", "entente"), "dir");
    writeFileSync(join(dir, "package.json"), '{ "type": "module", "private": true }\n');
    writeFileSync(join(dir, "consumer.ts"), CONSUMER);
    // Bounded (spawnSync's timeout, then SIGKILL): each is one node process.
    const bound = { timeout: 300_000, killSignal: "SIGKILL" } as const;
    const out = execFileSync(process.execPath, ["--import", tsx, "consumer.ts"], {
      cwd: dir,
      encoding: "utf8",
      ...bound,
    });
    const got = JSON.parse(out) as { played: string[]; phase: string; centres: number };
    assert.equal(got.played[0], "S1901M", "the first phase played is S1901M");
    assert.ok(got.played.includes("W1901A") || got.played.includes("S1902M"), "a year was played");
    assert.equal(got.phase, "S1903M", "the loaded game stands where the game stopped");
    assert.ok(got.centres >= 22, `the centres are counted (${got.centres})`);
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          module: "nodenext",
          moduleResolution: "nodenext",
          target: "es2022",
          allowImportingTsExtensions: true,
          skipLibCheck: true,
          types: ["node"],
          typeRoots: [join(root, "node_modules", "@types")],
        },
        files: ["consumer.ts"],
      }),
    );
    const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
    execFileSync(process.execPath, [tsc, "-p", "tsconfig.json"], {
      cwd: dir,
      encoding: "utf8",
      ...bound,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
