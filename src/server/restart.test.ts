import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { Clock, sevenPlayerGame } from "../judge/testing.ts";
import { openStore } from "../store/db.ts";

/*
 * A restart after kill -9 does no work that grows with the history (issue 28: 15 to 26 s
 * under load before; docs/performance.md, "Restart"). Two data folders: a fresh judge's, and
 * one with 150,000 more events and a write-ahead log of some 20 MB left by a process killed
 * with -9 (as a crashed server leaves it). The server's CPU time until it listens (from
 * /proc, all its threads; not the wall time, which follows the machine's load) is measured
 * for each, twice, alternating: the big one must not cost more than a second of CPU over the
 * small one. (Loading every game's history at start, or checking every page of a large
 * database before listening, costs several seconds here.)
 */

const BIN = fileURLToPath(new URL("../../bin/entente", import.meta.url));
const SQLITE = createRequire(import.meta.url).resolve("better-sqlite3");

/** The server's CPU time (ms, all threads) when it says it listens; then it is killed. */
function cpuToListen(data: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const p = spawn(BIN, ["serve", "--port", "0", "--host", "127.0.0.1", "--data", data], {
      env: { ...process.env, ENTENTE_WARMUP: "0" },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let err = "";
    let cpu: number | null = null;
    const timer = setTimeout(() => p.kill("SIGKILL"), 120_000);
    p.stderr.on("data", (d: Buffer) => {
      err += d.toString();
      if (cpu === null && /entente judge on http:/.test(err)) {
        const f = readFileSync(`/proc/${p.pid}/stat`, "utf8").split(") ")[1]!.split(" ");
        cpu = ((Number(f[11]) + Number(f[12])) * 1000) / 100; // clock ticks of 10 ms
        p.kill("SIGKILL");
      }
    });
    p.once("exit", () => {
      clearTimeout(timer);
      if (cpu === null) reject(new Error(`the server did not start:\n${err}`));
      else resolve(cpu);
    });
  });
}

test("a restart after kill -9 does no work that grows with the history", {
  skip: process.platform !== "linux" ? "reads the CPU time from /proc" : false,
}, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "entente-restart-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const small = join(dir, "small");
  const big = join(dir, "big");
  let gameId = "";
  for (const d of [small, big]) {
    const store = await openStore({ sqlitePath: join(d, "entente.sqlite") });
    try {
      gameId = (await sevenPlayerGame(store, {}, new Clock())).gameId;
    } finally {
      await store.close();
    }
  }
  // The history: 150,000 events, then 60,000 more left in the log by a process killed with -9.
  const fill = `
    const Database = require(${JSON.stringify(SQLITE)});
    const db = new Database(${JSON.stringify(join(big, "entente.sqlite"))});
    db.pragma("journal_mode = WAL");
    db.pragma("wal_autocheckpoint = 0");
    const ins = db.prepare("insert into events (game_id, kind, audience, data, at) values (?, 'press', 'public', ?, ?)");
    const many = db.transaction((from, n) => { for (let i = from; i < from + n; i++) ins.run(${JSON.stringify(gameId)}, JSON.stringify({ id: i, text: "x".repeat(100) }), i); });
    many(0, 150000);
    db.pragma("wal_checkpoint(TRUNCATE)");
    many(150000, 60000);
    process.kill(process.pid, "SIGKILL");
  `;
  const r = spawnSync(process.execPath, ["-e", fill], { stdio: "inherit", timeout: 300_000 });
  assert.equal(r.signal, "SIGKILL", "the filler was killed as a crashed server is");
  const wal = statSync(join(big, "entente.sqlite-wal")).size;
  assert.ok(wal > 10_000_000, `a log of ${wal} bytes left behind`);

  const cpu: Record<"small" | "big", number[]> = { small: [], big: [] };
  for (let i = 0; i < 2; i++) {
    cpu.small.push(await cpuToListen(small));
    cpu.big.push(await cpuToListen(big));
  }
  const least = (xs: number[]) => Math.min(...xs);
  t.diagnostic(
    `CPU to listen, ms: fresh ${cpu.small.join(", ")}; with history ${cpu.big.join(", ")}`,
  );
  assert.ok(
    least(cpu.big) <= least(cpu.small) + 1000,
    `the start with a long history took ${least(cpu.big)} ms of CPU, the fresh one ${least(cpu.small)} ms`,
  );
});
