import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import type { GameRecord } from "../../engine/record.ts";
import { runSync } from "../../testing/children.ts";

/*
 * europe1935 from the command line: the variant's rule default for Iran through the public
 * contract, games on a variant file, and records with the committee's acts replayed with
 * their scores.
 */

const BIN = fileURLToPath(new URL("../../../bin/entente", import.meta.url));
const MAP = fileURLToPath(new URL("./europe1935.json", import.meta.url));

function entente(args: string[], input = "") {
  const r = runSync(BIN, args, { input, encoding: "utf8" });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function adjudicate(order: string, args: string[] = [], rules?: unknown) {
  const input = JSON.stringify({
    variant: "europe1935",
    phase: "S1935M",
    units: { ussr: ["F cas"] },
    orders: { ussr: [order] },
    ...(rules !== undefined ? { rules } : {}),
  });
  const r = entente(["adjudicate", ...args], input);
  const out = JSON.parse(r.stdout) as {
    orders: { ussr: { text: string | null; result: string; reason?: string }[] };
    next: { units: { ussr: string[] } };
  };
  const mine = out.orders.ussr.find((o) => o.text === order);
  assert.ok(mine, `the result of ${order}`);
  return { result: mine.result, reason: mine.reason, units: out.next.units.ussr };
}

function tmp(t: import("node:test").TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), "entente-e1935-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe("europe1935 on the command line", () => {
  test("Iran: F Cas-Irn (no coast) does not move, F Cas-Irn NC does; an explicit option overrides", () => {
    const bare = adjudicate("F Cas-Irn");
    assert.equal(bare.result, "invalid", "no coast named");
    assert.match(bare.reason ?? "", /name the coast of Iran/, "the reason");
    assert.deepEqual(bare.units, ["F cas"], "the fleet stays");
    assert.equal(
      adjudicate("F Cas-Irn", ["--rules", "datc"]).result,
      "invalid",
      "under --rules datc too",
    );
    const nc = adjudicate("F Cas-Irn NC");
    assert.equal(nc.result, "succeeds", "the north coast named");
    assert.deepEqual(nc.units, ["F irn/nc"], "in Iran");
    const explicit = adjudicate("F Cas-Irn", [], { moveWithoutCoast: "fail" });
    assert.deepEqual(explicit.units, ["F irn/nc"], "the DATC answer when asked for");
  });

  test("new --variant europe1935 writes the variant's rule default into the record", (t) => {
    const dir = tmp(t);
    const out = join(dir, "g.json");
    assert.equal(entente(["new", "--variant", "europe1935", "--out", out]).status, 0, "new");
    const rec = JSON.parse(readFileSync(out, "utf8")) as GameRecord;
    assert.equal(rec.rules.moveWithoutCoast, "required", "the default");
    assert.equal(rec.version, 2, "version 2");
  });

  test("new --variant-file: the record keeps the variant data and plays and replays anywhere", (t) => {
    const dir = tmp(t);
    const data = JSON.parse(readFileSync(MAP, "utf8")) as Record<string, unknown>;
    const file = join(dir, "mine.json");
    writeFileSync(file, JSON.stringify({ ...data, $schema: undefined, id: "mymap", name: "Mine" }));
    const rec = join(dir, "g.json");
    const made = entente(["new", "--variant-file", file, "--out", rec]);
    assert.equal(made.status, 0, made.stderr);
    const orders = join(dir, "o.txt");
    writeFileSync(orders, "Germany:\nA Ber-Sax\n");
    const played = entente(["play", rec, orders]);
    assert.equal(played.status, 0, played.stderr);
    const record = JSON.parse(readFileSync(rec, "utf8")) as GameRecord;
    assert.equal(record.variant, "mymap", "the file's id");
    assert.equal(record.variantData?.name, "Mine", "its data kept");
    assert.ok(record.phases[0]!.position.units.germany?.includes("A sax"), "played on it");
    rmSync(file);
    const again = entente(["replay", rec]);
    assert.equal(again.status, 0, again.stdout + again.stderr);
    assert.match(again.stdout, /1 phases replay exactly/, "replays without the file");
    // A broken file is refused with the field at fault; a built-in id too.
    writeFileSync(file, JSON.stringify({ ...data, id: "mymap", rules: { moveWithoutCoast: "x" } }));
    const bad = entente(["new", "--variant-file", file, "--out", join(dir, "h.json")]);
    assert.equal(bad.status, 2, "refused");
    assert.match(bad.stderr, /rules\.moveWithoutCoast: cannot be "x"/, bad.stderr);
    writeFileSync(file, JSON.stringify(data));
    const builtin = entente(["new", "--variant-file", file, "--out", join(dir, "h.json")]);
    assert.match(builtin.stderr, /built-in variant/, builtin.stderr);
  });

  test("replay checks the committee's acts and prints the scores", (t) => {
    const dir = tmp(t);
    const rec = join(dir, "g.json");
    assert.equal(entente(["new", "--variant", "europe1935", "--out", rec]).status, 0, "new");
    const record = JSON.parse(readFileSync(rec, "utf8")) as GameRecord;
    const committee = [
      {
        at: 0,
        by: "gm",
        act: "goal",
        power: "poland",
        source: "chairs",
        text: "Hold Danzig",
        points: 2,
      },
      { at: 0, by: "gm", act: "achieved", goal: "g1", achieved: true },
    ];
    writeFileSync(rec, JSON.stringify({ ...record, committee }));
    const ok = entente(["replay", rec]);
    assert.equal(ok.status, 0, ok.stdout + ok.stderr);
    assert.match(ok.stdout, /victory points: poland 2, uk 0/, ok.stdout);
    assert.match(ok.stdout, /poland leads/, "the leader");
    // An act the rules refuse (a power approving) fails the replay.
    const bad = [...committee, { at: 0, by: "uk", act: "deny", goal: "g1" }];
    writeFileSync(rec, JSON.stringify({ ...record, committee: bad }));
    const refused = entente(["replay", rec]);
    assert.equal(refused.status, 1, "refused");
    assert.match(refused.stdout, /committee: act 2 .*only the chairs/, refused.stdout);
  });
  test("Switzerland cannot be occupied: a unit there is an error in adjudicate, play and replay", (t) => {
    const SWI = /Switzerland is impassable: no unit may enter or stand there/;
    const input = JSON.stringify({
      variant: "europe1935",
      phase: "S1935M",
      units: { germany: ["A mun", "A swi"] },
      orders: { germany: ["A mun H"] },
    });
    const r = entente(["adjudicate"], input);
    assert.equal(r.status, 1, "a malformed line exits 1");
    const out = JSON.parse(r.stdout) as { error?: string };
    assert.match(out.error ?? "", SWI, r.stdout);
    assert.match(out.error ?? "", /"A swi"/, "the unit is named");
    // A record whose position has a unit there is refused by play and by replay.
    const dir = tmp(t);
    const rec = join(dir, "g.json");
    assert.equal(entente(["new", "--variant", "europe1935", "--out", rec]).status, 0, "new");
    const record = JSON.parse(readFileSync(rec, "utf8")) as GameRecord;
    const units = { ...record.start.units, germany: [...record.start.units.germany!, "A swi"] };
    writeFileSync(rec, JSON.stringify({ ...record, start: { ...record.start, units } }));
    const orders = join(dir, "o.txt");
    writeFileSync(orders, "Germany:\nA Ber-Sax\n");
    const played = entente(["play", rec, orders]);
    assert.equal(played.status, 2, `play refuses: ${played.stderr}`);
    assert.match(played.stderr, SWI, played.stderr);
    const replayed = entente(["replay", rec]);
    assert.equal(replayed.status, 1, "replay refuses");
    assert.match(replayed.stdout, SWI, replayed.stdout);
    // And an order to go there is invalid, saying why.
    const move = JSON.stringify({
      variant: "europe1935",
      phase: "S1935M",
      units: { germany: ["A mun"] },
      orders: { germany: ["A Mun-Swi"] },
    });
    const moved = JSON.parse(entente(["adjudicate"], move).stdout) as {
      orders: { germany: { result: string; reason?: string }[] };
    };
    assert.equal(moved.orders.germany[0]!.result, "invalid", "A Mun-Swi");
    assert.match(moved.orders.germany[0]!.reason ?? "", /Switzerland is impassable/, "its reason");
  });
});
