import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type TestContext, test } from "node:test";
import { fileURLToPath } from "node:url";
import { runSync } from "../testing/children.ts";

/* The command line as a user meets it: `bin/entente` after `npm install`. */

const BIN = fileURLToPath(new URL("../../bin/entente", import.meta.url));

/** A fresh folder for one test, removed when the test ends. */
function scratch(t: TestContext, prefix = "entente-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function entente(args: string[], input = "") {
  const r = runSync(BIN, args, { input, encoding: "utf8" });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const position = (orders: Record<string, string[]>) =>
  JSON.stringify({
    variant: "classical",
    phase: "S1901M",
    units: { england: ["F lon", "A lvp"], france: ["F bre"] },
    orders,
  });

test("adjudicate: JSON Lines in, one line out per line in the same order; a bad line is an error line and exit 1", () => {
  const input = [
    position({ england: ["F lon - eng"], france: ["F bre - eng"] }),
    "{not json",
    JSON.stringify({ variant: "nowhere", phase: "S1901M", units: {} }),
    JSON.stringify({ variant: "classical", phase: "S1901M", units: { england: ["A nth"] } }),
    position({ england: ["A lvp - yor"] }),
  ].join("\n");
  const r = entente(["adjudicate"], input);
  assert.equal(r.status, 1);
  const lines = r.stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  assert.equal(lines.length, 5);
  assert.equal(lines[0].orders.england[0].result, "fails");
  assert.match(lines[1].error, /line 2 is not valid JSON/);
  assert.match(lines[2].error, /unknown variant "nowhere"; known: classical/);
  assert.match(lines[3].error, /an army cannot stand in North Sea/);
  assert.deepEqual(lines[4].next.units.england, ["F lon", "A yor"]);
});

test("adjudicate: one pretty-printed object is read whole; valid input exits 0", () => {
  const obj = JSON.parse(position({ england: ["F lon - nth"] }));
  const r = entente(["adjudicate"], JSON.stringify(obj, null, 2));
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.phase, "S1901M");
  assert.equal(out.next.phase, "F1901M");
  assert.deepEqual(out.orders.england, [
    {
      text: "F lon - nth",
      order: "F lon - nth",
      result: "succeeds",
      explanation: "moved with strength 1 unopposed",
    },
    { text: null, order: "A lvp H", result: "succeeds", explanation: "held; not attacked" },
  ]);
  assert.deepEqual(out.orders.france, [
    { text: null, order: "F bre H", result: "succeeds", explanation: "held; not attacked" },
  ]);
});

test("adjudicate: --rules sets the profile for lines without their own; unknown profiles are refused", () => {
  const input = JSON.stringify({
    variant: "classical",
    phase: "S1901M",
    units: { germany: ["A ber"] },
    orders: { germany: ["A ber - pru", "A ber - sil"] },
  });
  assert.equal(
    JSON.parse(entente(["adjudicate", "--rules", "datc"], input).stdout).next.units.germany[0],
    "A sil",
  );
  const bad = entente(["adjudicate", "--rules", "nonsense"], input);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /unknown rule profile "nonsense"/);
});

test("variants and variant show", () => {
  const list = entente(["variants"]);
  assert.equal(list.status, 0);
  assert.ok(list.stdout.split("\n").includes("classical"));
  const show = JSON.parse(entente(["variant", "show", "classical"]).stdout);
  assert.equal(show.provinces.length, 75);
  assert.equal(show.powers.length, 7);
  const stp = show.provinces.find((p: { id: string }) => p.id === "stp");
  assert.deepEqual(stp.coasts, ["nc", "sc"]);
  assert.deepEqual([...stp.adjacency.fleet.nc].sort(), ["bar", "nwy"]);
  assert.equal(show.start.phase, "S1901M");
  assert.deepEqual(show.start.units.russia.sort(), ["A mos", "A war", "F sev", "F stp/sc"]);
  const unknown = entente(["variant", "show", "atlantis"]);
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /unknown variant "atlantis"/);
});

test("help, and unknown commands say what to do", () => {
  assert.match(entente(["help"]).stdout, /entente adjudicate/);
  const r = entente(["frobnicate"]);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /unknown command "frobnicate"; run "entente help"/);
});

test("a game master's workflow: new, play from an order file, history, replay", async (t) => {
  const dir = scratch(t);
  const game = `${dir}/game.json`;
  assert.equal(entente(["new", "--players", "4", "--seed", "5", "--out", game]).status, 0);
  const again = entente(["new", "--out", game]);
  assert.equal(again.status, 2);
  assert.match(again.stderr, /exists/);
  writeFileSync(
    `${dir}/s1901.txt`,
    "England:\nF lon - nth\nA lvp - yor\n\nFrance:\nA par - bur\nGermany:\nA mun - burgandy\n",
  );
  const played = entente(["play", game, `${dir}/s1901.txt`]);
  assert.equal(played.status, 0, played.stderr);
  assert.match(played.stdout, /Spring 1901 movement/);
  assert.match(played.stdout, /INVALID: unknown province "burgandy": did you mean Burgundy\?/);
  const record = JSON.parse(readFileSync(game, "utf8"));
  assert.equal(record.scenario, "4");
  assert.equal(record.phases.length, 1);
  writeFileSync(`${dir}/f1901.json`, JSON.stringify({ england: ["F nth - nwy"] }));
  assert.equal(entente(["play", game, `${dir}/f1901.json`]).status, 0);
  assert.match(
    entente(["history", game]).stdout,
    /Fall 1901 movement[\s\S]*Supply centres after F1901M/,
  );
  assert.equal(entente(["replay", game]).status, 0);
  writeFileSync(`${dir}/bad.txt`, "F lon - nth\n");
  const bad = entente(["play", game, `${dir}/bad.txt`]);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /before any power's name/);
  assert.equal(
    JSON.parse(readFileSync(game, "utf8")).phases.length,
    2,
    "nothing written on a bad order file",
  );
});

test("variant check: a valid file is summarised; a broken one lists its problems and exits 1", async (t) => {
  const ok = entente([
    "variant",
    "check",
    fileURLToPath(new URL("../variants/europe1935/europe1935.json", import.meta.url)),
  ]);
  assert.equal(ok.status, 0, ok.stderr);
  assert.match(ok.stdout, /is valid[\s\S]*60: 45 home, 15 neutral/);
  const dir = scratch(t);
  writeFileSync(`${dir}/bad.json`, JSON.stringify({ id: "bad" }));
  const bad = entente(["variant", "check", `${dir}/bad.json`]);
  assert.equal(bad.status, 1);
  assert.match(bad.stdout, /name: is required/);
});

test("selfplay: worker threads write the same records, in game order, as one thread", async (t) => {
  const dir = scratch(t);
  const args = ["selfplay", "--games", "5", "--seed", "9", "--until", "1903"];
  const one = entente([...args, "--out", `${dir}/one.jsonl`]);
  const two = entente([...args, "--workers", "2", "--out", `${dir}/two.jsonl`]);
  assert.equal(one.status, 0, one.stderr);
  assert.equal(two.status, 0, two.stderr);
  const a = JSON.parse(one.stdout);
  const b = JSON.parse(two.stdout);
  assert.equal(a.games, 5);
  assert.equal(b.workers, 2);
  assert.equal(a.phases, b.phases);
  const records = readFileSync(`${dir}/one.jsonl`, "utf8");
  assert.equal(records.trim().split("\n").length, 5);
  assert.equal(readFileSync(`${dir}/two.jsonl`, "utf8"), records);
  assert.equal(JSON.parse(records.split("\n")[0]!).seed, 9);
});

test("selfplay and bench run from a bundle made at start, and leave no temporary file", async (t) => {
  const tmp = scratch(t);
  const env = { ...process.env, TMPDIR: tmp };
  const args = ["selfplay", "--games", "3", "--seed", "2", "--until", "1902", "--workers", "2"];
  const r = runSync(BIN, args, { encoding: "utf8", env });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).games, 3);
  const b = runSync(BIN, ["bench", "selfplay", "--games", "2", "--years", "1"], {
    encoding: "utf8",
    env,
  });
  assert.equal(b.status, 0, b.stderr);
  assert.equal(JSON.parse(b.stdout).games, 2);
  assert.deepEqual(readdirSync(tmp), [], "the bundle's directory is removed once loaded");
  // Bad input is refused as under tsx (before any worker starts).
  const bad = runSync(BIN, ["selfplay", "--games", "2", "--workers", "2", "--rules", "x"], {
    encoding: "utf8",
    env,
  });
  assert.equal(bad.status, 2, bad.stderr);
  assert.match(bad.stderr, /unknown rule profile "x"; known: /);
});

test("selfplay: --shard I/N parts, concatenated in order, are exactly the whole run's records", async (t) => {
  const dir = scratch(t);
  const args = ["selfplay", "--games", "7", "--seed", "4", "--until", "1902"];
  const whole = entente([...args, "--out", `${dir}/all.jsonl`]);
  assert.equal(whole.status, 0, whole.stderr);
  const parts: string[] = [];
  let phases = 0;
  for (const i of [1, 2, 3]) {
    const r = entente([...args, "--shard", `${i}/3`, "--out", `${dir}/p${i}.jsonl`]);
    assert.equal(r.status, 0, r.stderr);
    const summary = JSON.parse(r.stdout);
    assert.equal(summary.shard, `${i}/3`, "the summary names its part");
    phases += summary.phases;
    parts.push(readFileSync(`${dir}/p${i}.jsonl`, "utf8"));
  }
  assert.equal(
    parts.join(""),
    readFileSync(`${dir}/all.jsonl`, "utf8"),
    "the parts make the whole",
  );
  assert.equal(phases, JSON.parse(whole.stdout).phases, "and their phases add up");
  const bad = entente([...args, "--shard", "4/3"]);
  assert.equal(bad.status, 2, "a part that does not exist is a usage error");
  assert.match(bad.stderr, /--shard must be I\/N with 1 <= I <= N/, "saying what is expected");
});

test("a reader that closes the pipe early (| head) ends the command quietly, not with EPIPE", () => {
  // `true` exits before node has started, so every write meets a closed pipe.
  const r = runSync("bash", ["-c", `set -o pipefail; "${BIN}" variant show classical | true`], {
    encoding: "utf8",
  });
  assert.equal(r.status, 0, `the pipeline succeeds (stderr: ${r.stderr})`);
  assert.doesNotMatch(r.stderr, /EPIPE|Error/, "nothing is printed about the closed pipe");
});

test("discovery: a generated game is made and its map shown to one player through bin/entente", (t) => {
  const dir = scratch(t, "entente-discovery-");
  const file = join(dir, "g.json");
  const made = entente(["discovery", "new", "--seed", "5", "--players", "9", "--out", file]);
  assert.equal(made.status, 0, `made (${made.stderr})`);
  const map = entente(["discovery", "map", file, "--player", "3"]);
  assert.equal(map.status, 0, `map shown (${map.stderr})`);
  assert.match(map.stdout, /\+-----\+/, "drawn as a grid of squares");
  const bad = entente(["discovery", "map", file, "--player", "30"]);
  assert.equal(bad.status, 2, "a player who is not in the game is a usage error");
  assert.match(bad.stderr, /--player must be 1 to 9/, "saying which players there are");
});

/* Issue 21's adjudicate cases and issue 22's self-play years, through bin/entente. */

const nested = (depth: number): string => `${"[".repeat(depth)}${"]".repeat(depth)}`;

test("adjudicate: bad lines (invalid JSON, a non-object, nesting thousands deep in rules or variantData) each get one error line; every other line is answered, in order", () => {
  const good = position({ england: ["F lon - nth"] });
  const deepRules = `{"variant":"classical","phase":"S1901M","units":{},"rules":{"convoyParadox":${nested(5000)}}}`;
  const deepData = `{"variant":"classical","phase":"S1901M","units":{},"variantData":${nested(5000)}}`;
  assert.ok(deepRules.length > 10_000, "about 10 KB of nesting");
  const input = [good, deepRules, good, "", "[1, 2", good, "42", deepData, good].join("\n");
  const r = entente(["adjudicate"], input);
  assert.equal(r.status, 1, "a bad line makes the exit status 1");
  assert.equal(r.stderr, "", "no stack trace, nothing on stderr");
  const lines = r.stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { error?: string; next?: { units: Record<string, string[]> } });
  assert.equal(lines.length, 8, "one line per input line (the blank one skipped)");
  for (const i of [0, 2, 4, 7]) {
    assert.equal(lines[i]?.error, undefined, `line ${i} answered`);
    assert.deepEqual(lines[i]?.next?.units.england, ["F nth", "A lvp"], `line ${i}'s result`);
  }
  assert.match(lines[1]?.error ?? "", /^line 2 nests deeper than 1000 levels/, "deep rules");
  assert.match(lines[3]?.error ?? "", /^line 5 is not valid JSON/, "numbered as in the input");
  assert.match(lines[5]?.error ?? "", /each input must be a JSON object/, "not an object");
  assert.match(lines[6]?.error ?? "", /^line 8 nests deeper than 1000 levels/, "deep variantData");
  const one = entente(["adjudicate"], `{"rules": {"convoyParadox": ${nested(5000)}}}`);
  assert.equal(one.status, 1, "one deep object alone: exit 1");
  assert.match(JSON.parse(one.stdout).error, /the input nests deeper than 1000 levels/, "said");
  assert.equal(one.stderr, "", "no stack trace");
});

test("adjudicate: empty input says so as a JSON error with exit 1", () => {
  for (const input of ["", "\n  \n"]) {
    const r = entente(["adjudicate"], input);
    assert.equal(r.status, 1, "exit 1");
    assert.equal(r.stderr, "", "nothing on stderr");
    assert.match(JSON.parse(r.stdout).error, /^no input: standard input was empty/, "says so");
  }
});

test("selfplay plays the game-years asked for on every variant (and the turns on the game families)", async (t) => {
  const { getGame } = await import("../variants/registry.ts");
  const dir = scratch(t, "entente-years-");
  const variants = entente(["variants"]).stdout.trim().split("\n");
  assert.ok(variants.includes("global") && variants.includes("discovery"), "families listed");
  for (const v of variants) {
    if (getGame(v)) {
      const r = entente(["selfplay", "--variant", v, "--turns", "3", "--games", "2"]);
      assert.equal(r.status, 0, `${v}: ${r.stderr}`);
      const s = JSON.parse(r.stdout) as { turns: number; unfinished: number };
      assert.deepEqual([s.turns, s.unfinished], [6, 2], `${v}: three turns in each game`);
      continue;
    }
    const start = (
      JSON.parse(entente(["variant", "show", v]).stdout) as { start: { phase: string } }
    ).start.phase;
    const first = Number(start.slice(1, 5));
    const out = join(dir, `${v}.jsonl`);
    const r = entente(["selfplay", "--variant", v, "--years", "2", "--games", "2", "--out", out]);
    assert.equal(r.status, 0, `${v}: ${r.stderr}`);
    assert.equal(r.stderr, "", `${v}: quiet when piped`);
    const s = JSON.parse(r.stdout) as { startYear: number; untilYear: number; games: number };
    assert.deepEqual([s.startYear, s.untilYear], [first, first + 1], `${v}: two years`);
    const records = readFileSync(out, "utf8").trim().split("\n");
    assert.equal(records.length, 2, `${v}: two records`);
    for (const line of records) {
      const years = (JSON.parse(line) as { phases: { phase: string }[] }).phases.map((p) =>
        Number(p.phase.slice(1, 5)),
      );
      assert.deepEqual([...new Set(years)], [first, first + 1], `${v}: every phase of both years`);
    }
  }
});

test("selfplay --variant europe1935 runs 35 years from 1935 by default; --until YEAR is still a year", () => {
  const r = entente(["selfplay", "--variant", "europe1935"]);
  assert.equal(r.status, 0, r.stderr);
  const s = JSON.parse(r.stdout) as { startYear: number; untilYear: number; phases: number };
  assert.deepEqual([s.startYear, s.untilYear], [1935, 1969], "1935 to 1969");
  assert.ok(s.phases > 35 * 2, `more than a year of phases: ${s.phases}`);
  const until = JSON.parse(entente(["selfplay", "--until", "1903"]).stdout) as {
    untilYear: number;
  };
  assert.equal(until.untilYear, 1903, "--until names the last year");
  const bench = JSON.parse(
    entente(["bench", "selfplay", "--games", "2", "--years", "2"]).stdout,
  ) as {
    until: number;
    completeMovementPhasesPerSecond: number;
    completeWordedMovementPhasesPerSecond: number;
    adjudicatedMovementPhasesPerSecond: number;
  };
  assert.equal(bench.until, 1902, "the bench counts years from 1901 too");
  for (const scope of [
    "completeMovementPhasesPerSecond",
    "completeWordedMovementPhasesPerSecond",
    "adjudicatedMovementPhasesPerSecond",
  ] as const)
    assert.ok(bench[scope] > 0, `the bench reports ${scope}: ${bench[scope]}`);
});

test("self-play shows its progress on a terminal, not when piped", () => {
  const script = runSync(
    "script",
    ["-qfec", `"${BIN}" selfplay --games 2 --years 1`, "/dev/null"],
    {
      encoding: "utf8",
    },
  );
  if (script.error) return; // no script(1) here: the piped half is checked above
  assert.equal(script.status, 0, script.stdout);
  assert.match(script.stdout, /\] 2\/2 games/, "a progress bar on the terminal");
});

test("--version and --help through bin/entente", () => {
  assert.match(entente(["--version"]).stdout, /^\d+\.\d+\.\d+\n$/, "the version");
  const help = entente(["selfplay", "--help"]);
  assert.equal(help.status, 0, "exit 0");
  assert.match(help.stdout, /--years <N>[\s\S]*Examples:/, "options and examples");
});
