import assert from "node:assert/strict";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { testStore } from "../store/testing.ts";
import { runChild } from "../testing/children.ts";
import { addressOf, GAME_ADDRESS, mailTestGame, rawMail } from "./testing.ts";

/* `entente mail ingest FILE.eml`: the same path as the receiver, from the command line. */

const BIN = fileURLToPath(new URL("../../bin/entente", import.meta.url));

function run(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const env = { ...process.env };
  delete env.DATABASE_URL;
  delete env.ENTENTE_SMTP_URL;
  delete env.ENTENTE_OUTBOX;
  return runChild(BIN, args, { env });
}

test("mail ingest: handles a raw mail as the receiver does and prints the reply", async (t) => {
  const ts = await testStore(t, "sqlite");
  assert.ok(ts, "sqlite store");
  const dir = ts.env.ENTENTE_TEST_SQLITE_DIR!;
  const g = await mailTestGame(ts.store);
  const good = join(dir, "good.eml");
  writeFileSync(
    good,
    rawMail({
      from: addressOf("austria"),
      to: GAME_ADDRESS,
      subject: "SED 01SA",
      text: `Secret: ${g.secrets.austria}\nA vie-gal\nA bud-sre\nFinal\n`,
    }),
  );
  const bad = join(dir, "bad.eml");
  writeFileSync(
    bad,
    rawMail({
      from: addressOf("austria"),
      to: GAME_ADDRESS,
      subject: "SED 01SA",
      text: "A vie-gal",
    }),
  );
  const [ok, refused, usage, missing] = await Promise.all([
    run(["mail", "ingest", good, "--data", dir]),
    run(["mail", "ingest", bad, "--data", dir]),
    run(["mail", "ingest"]),
    run(["mail", "ingest", join(dir, "nope.eml"), "--data", dir]),
  ]);
  assert.equal(ok.status, 0, `accepted: ${ok.stderr}`);
  assert.match(
    ok.stdout,
    /^To: austria@players\.test\nSubject: Re: SED 01SA\n/,
    "the reply's head",
  );
  assert.match(ok.stdout, /A bud-sre\s+-> A bud - ser \(read "sre" as Serbia\)/, "the reading");
  assert.equal(refused.status, 1, "a refused mail exits 1");
  assert.match(refused.stdout, /NOT accepted.*no secret line/s, "and says why");
  assert.equal(usage.status, 2, "usage error");
  assert.match(
    usage.stderr,
    /entente mail ingest: missing required argument 'FILE\.eml'; see "entente mail ingest --help"/,
    "says what is missing and where the usage is",
  );
  assert.equal(missing.status, 2, "no such file");
  assert.match(missing.stderr, /no mail file/, "named");
  const sets = await g.judge.submissions.currentOrders(g.gm, g.gameId);
  assert.deepEqual(
    sets.sets.map((s) => [s.power, s.orders, s.final]),
    [["austria", ["A vie-gal", "A bud-sre"], true]],
    "the orders are on file in the same database",
  );
  // No SMTP configured: the replies are in the outbox folder too.
  const files = readdirSync(join(dir, "outbox")).sort();
  assert.equal(files.length, 2, "two .eml files");
  const eml = files.map((f) => readFileSync(join(dir, "outbox", f), "utf8")).join("\n");
  assert.match(eml, /To: austria@players\.test/, "addressed");
  assert.match(eml, /From: sed@judge\.test/, "from the game's address");
});
