/*
 * `entente daide host` as a tournament script meets it: the port on standard error, a client
 * over TCP, one JSON line on standard output and exit status 0 at the end, the record in
 * --data; usage errors in one line with status 2.
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";
import { daideMap } from "../daide/mapdef.ts";
import { TestClient } from "../daide/testing.ts";
import { type Child, runSync, startChild } from "../testing/children.ts";
import { getScenario } from "../variants/scenarios.ts";

const BIN = fileURLToPath(new URL("../../bin/entente", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "entente-daide-"));
const children: Child[] = [];
const clients: TestClient[] = [];

after(async () => {
  for (const c of clients) c.close();
  for (const c of children) await c.end();
  rmSync(dir, { recursive: true, force: true });
});

test("usage errors: one line, status 2", () => {
  for (const [args, said] of [
    [["--port", "0", "--bots", "8"], /--bots 8: the game has only 7 seats/],
    [["--port", "0", "--bots", "7"], /--bots 7 leaves no seat for a DAIDE client: give at most 6/],
    [["--port", "0", "--bot", "clever"], /unknown bot "clever"; built-in players: .*random/],
    [["--port", "0", "--until", "1901"], /--until 1901 is not after the start \(1901\)/],
    [["--port", "0", "--variant", "global"], /unknown variant "global"/],
    [["--port", "70000"], /a port is a whole number from 0 to 65535/],
    [
      ["--port", "0", "--level", "20"],
      /--level 20: the host offers press level 0 \(no press\) or 10/,
    ],
    [["--port", "0", "--bot-powers", "TUR"], /--bot-powers names the seats of --bots K/],
    [["--port", "0", "--bots", "1", "--bot-powers", "XYZ"], /"XYZ" is not a seat of standard/],
  ] as const) {
    const r = runSync(BIN, ["daide", "host", ...args], { encoding: "utf8", timeout: 60_000 });
    assert.equal(r.status, 2, `${args.join(" ")}: ${r.stderr}`);
    assert.match(String(r.stderr), said);
    assert.equal(String(r.stderr).trim().split("\n").length, 1);
  }
});

test("a game to its end: the summary line, status 0, the record in --data", async () => {
  const host = startChild(
    BIN,
    [
      "daide",
      "host",
      "--port",
      "0",
      "--host",
      "127.0.0.1",
      "--bots",
      "6",
      "--move-time",
      "0",
      "--until",
      "1902",
      "--data",
      dir,
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  children.push(host);
  let stdout = "";
  let stderr = "";
  host.proc.stdout!.on("data", (b: Buffer) => {
    stdout += b;
  });
  const port = await new Promise<number>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`no port said within 60 s: ${stderr}`)), 60_000);
    host.proc.stderr!.on("data", (b: Buffer) => {
      stderr += b;
      const m = /on port (\d+);/.exec(stderr);
      if (m) {
        clearTimeout(t);
        resolve(Number(m[1]));
      }
    });
  });
  const c = await TestClient.join(port, daideMap(getScenario("classical")!).names);
  clients.push(c);
  c.send("NME ('cli') ('2')");
  await c.text("MAP");
  c.send("YES (MAP ('standard'))");
  await c.text("HLO");
  for (;;) {
    const m = await c.next((x) => /^(NOW|OFF)/.test(x.text ?? ""), 30_000);
    if (m.text === "OFF") break;
    c.send("GOF");
  }
  const exit = await Promise.race([
    host.exited,
    new Promise<null>((r) => setTimeout(() => r(null), 30_000).unref()),
  ]);
  assert.deepEqual(exit, { code: 0, signal: null }, stderr);
  const lines = stdout.trim().split("\n");
  assert.equal(lines.length, 1);
  const s = JSON.parse(lines[0]!);
  assert.equal(s.result.kind, "draw");
  assert.equal(s.result.reason, "until");
  assert.equal(s.powers[0].client, "cli");
  assert.equal(s.powers[0].version, "2");
  assert.equal(s.powers[1].bot, "random");
  assert.ok(existsSync(s.recordFile));
  const record = JSON.parse(readFileSync(s.recordFile, "utf8"));
  assert.equal(record.phases.length, s.phases);
  const replay = runSync(BIN, ["replay", s.recordFile], { encoding: "utf8", timeout: 60_000 });
  assert.equal(replay.status, 0, String(replay.stderr));
});
