import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import type { Command } from "commander";
import { runSync } from "../testing/children.ts";
import { completionScript } from "./completion.ts";
import { allCommands, commandPath, examplesOf } from "./define.ts";
import { buildProgram } from "./program.ts";
import { cliReference } from "./reference.ts";
import { cli } from "./testing.ts";

/*
 * The command line's definitions (program.ts) as a user meets them: every command's --help,
 * usage errors (exit 2, one line) and failures (exit 1), the completion scripts, and the
 * README and docs/cli.md checked against the definitions. Run in this process (runCli);
 * cli.test.ts runs bin/entente itself.
 */

const dir = mkdtempSync(join(tmpdir(), "entente-cli-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const { program } = buildProgram({ out: () => {}, err: () => {}, stdin: () => "" });
const commands = allCommands(program).filter((c) => c !== program);
const words = (c: Command): string[] => commandPath(c).split(" ").slice(1);
const root = new URL("../../", import.meta.url);

describe("every command answers --help and -h", () => {
  for (const c of commands) {
    test(`entente ${words(c).join(" ")} --help`, async () => {
      const long = await cli([...words(c), "--help"]);
      assert.equal(long.status, 0, `exit 0 (${long.err})`);
      assert.equal(long.err, "", "nothing on stderr");
      assert.ok(long.out.startsWith(`Usage: ${commandPath(c)} `), `the usage first: ${long.out}`);
      for (const o of c.options) {
        assert.ok(long.out.includes(o.long ?? o.flags), `mentions ${o.flags}`);
        if (o.defaultValue !== undefined) {
          // The option's lines, up to the next option.
          const at = long.out.indexOf(`  ${o.flags}`);
          const next = long.out.indexOf("\n  -", at + 1);
          const text = long.out.slice(at, next === -1 ? undefined : next);
          assert.match(text, /default:\s/, `${o.flags} shows its default`);
        }
      }
      for (const a of c.registeredArguments)
        assert.ok(long.out.includes(a.name()), `names its argument ${a.name()}`);
      assert.ok(examplesOf(c).length > 0, "has examples");
      assert.match(long.out, /\nExamples:\n {2}\$ /, "shows them");
      for (const e of examplesOf(c)) assert.ok(long.out.includes(e.command), e.command);
      const short = await cli([...words(c), "-h"]);
      assert.equal(short.status, 0, "-h exits 0");
      assert.equal(short.out, long.out, "-h is --help");
    });
  }

  test("entente, entente help and entente --help list every command; help COMMAND is --help", async () => {
    const bare = await cli([]);
    const help = await cli(["help"]);
    assert.equal(bare.status, 0, `entente alone exits 0 (${bare.err})`);
    assert.equal(help.status, 0, `help exits 0 (${help.err})`);
    assert.equal(bare.out, help.out, "the same text");
    assert.equal((await cli(["--help"])).out, help.out, "--help too");
    for (const c of program.commands)
      assert.match(help.out, new RegExp(`\\n {2}${c.name()}\\b`), `lists ${c.name()}`);
    for (const c of commands) {
      const viaHelp = await cli(["help", ...words(c)]);
      assert.equal(viaHelp.status, 0, `help ${commandPath(c)} exits 0 (${viaHelp.err})`);
      assert.equal(viaHelp.out, (await cli([...words(c), "--help"])).out, commandPath(c));
    }
  });

  test("entente --version prints package.json's version", async () => {
    const pkg = JSON.parse(readFileSync(new URL("package.json", root), "utf8")) as {
      version: string;
    };
    const r = await cli(["--version"]);
    assert.equal(r.status, 0, "exit 0");
    assert.equal(r.out, `${pkg.version}\n`, "the version");
  });
});

describe("usage errors exit 2 with one line on stderr; failures exit 1", () => {
  const cases: [string[], RegExp][] = [
    [["frobnicate"], /^entente: unknown command "frobnicate"; run "entente help" for the list$/],
    [["help", "selfpaly"], /^entente: unknown command "selfpaly" \(did you mean selfplay\?\)/],
    [["selfpaly"], /^entente: unknown command "selfpaly" \(did you mean selfplay\?\)/],
    [
      ["selfplay", "--yaers", "3"],
      /^entente selfplay: unknown option '--yaers' \(did you mean --years\?\); see "entente selfplay --help"$/,
    ],
    [["variant"], /^entente variant: needs a command: show, check; see "entente variant --help"$/],
    [["variant", "shw", "x"], /^entente variant: unknown command "shw" \(did you mean show\?\)/],
    [["global", "bogus"], /^entente global: unknown command "bogus"/],
    [["discovery", "mpa", "g.json"], /unknown command "mpa" \(did you mean map\?\)/],
    [["replay"], /^entente replay: missing required argument 'RECORD'/],
    [["replay", "a.json", "b.json"], /^entente replay: too many arguments/],
    [["selfplay", "--games", "x"], /argument 'x' is invalid: it must be a whole number of at/],
    [["selfplay", "--games"], /option '--games <N>' argument missing/],
    [["render", "--variant", "classical"], /required option '--out <FILE>' not specified/],
    [["render", "--palette", "pastel", "--out", "x.svg"], /choices are standard, colorblind/],
    [["completion", "fish"], /choices are bash, zsh/],
    [["new", "--variant", "europe1935", "--variant-file", "v.json"], /cannot be used with/],
    [["selfplay", "--years", "2", "--until", "1903"], /give --years or --until, not both/],
    [["selfplay", "--until", "1900"], /--until 1900 is before the variant's start in 1901/],
    [["selfplay", "--variant", "atlantis"], /unknown variant "atlantis"; known: classical/],
    [["selfplay", "--variant", "global", "--years", "3"], /--years is not used by .*--turns/],
    [["selfplay", "--turns", "5"], /--turns is for game families.*--years N or --until YEAR/],
    [["bench", "selfplay", "--until", "1900"], /before the variant's start in 1901/],
    [["history", join(dir, "none.json")], /no record file .*none\.json/],
  ];
  for (const [args, message] of cases) {
    test(`entente ${args.join(" ")}`, async () => {
      const r = await cli(args);
      assert.equal(r.status, 2, `exit 2 (${r.err})`);
      assert.equal(r.err.trim().split("\n").length, 1, `one line: ${r.err}`);
      assert.match(r.err.trim(), message, "says what is wrong");
      assert.equal(r.out, "", "nothing on stdout");
    });
  }

  test("adjudicate's usage errors are JSON on stdout too", async () => {
    for (const args of [
      ["adjudicate", "--rules", "nope"],
      ["adjudicate", "--rulez"],
    ]) {
      const r = await cli(args, "{}");
      assert.equal(r.status, 2, "exit 2");
      const line = JSON.parse(r.out) as { error: string };
      assert.equal(`${line.error}\n`, r.err, "the same message on both");
    }
  });

  test("a failure exits 1: an unexpected error is one line without a stack trace", async () => {
    const r = await cli(["new", "--out", join(dir, "no-such-folder", "game.json")]);
    assert.equal(r.status, 1, `exit 1 (${r.err})`);
    assert.match(r.err, /^entente new: failed: ENOENT.*\(ENTENTE_DEBUG=1 shows where\)\n$/);
    assert.doesNotMatch(r.err, /\n\s+at /, "no stack trace");
  });

  test("a failure exits 1: a record that does not replay; --json says so as JSON", async () => {
    const file = join(dir, "tampered.json");
    assert.equal((await cli(["new", "--out", file])).status, 0, "new");
    const record = JSON.parse(readFileSync(file, "utf8")) as { start: { units: object } };
    record.start.units = {};
    writeFileSync(file, JSON.stringify(record));
    const text = await cli(["replay", file]);
    assert.equal(text.status, 1, "exit 1");
    assert.match(text.out, /the start is not the scenario's start/, "says why");
    assert.equal(text.err, `entente replay: ${file} does not replay exactly\n`, "one line");
    const json = await cli(["replay", file, "--json"]);
    assert.equal(json.status, 1, "exit 1");
    assert.deepEqual(
      JSON.parse(json.out),
      {
        record: file,
        ok: false,
        phases: 0,
        phase: "-",
        problem: "the start is not the scenario's start",
      },
      "as JSON",
    );
  });
});

describe("--json summaries", () => {
  test("new, play, replay, variant check and render print one JSON line", async () => {
    const game = join(dir, "json-game.json");
    const made = await cli(["new", "--players", "4", "--out", game, "--json"]);
    assert.equal(made.status, 0, made.err);
    assert.deepEqual(
      JSON.parse(made.out),
      { out: game, variant: "classical", scenario: "4", seed: 1, phase: "S1901M" },
      "new",
    );
    const orders = join(dir, "json-orders.json");
    writeFileSync(orders, JSON.stringify({ england: ["F lon - nth"] }));
    const played = await cli(["play", game, orders, "--json"]);
    assert.equal(played.status, 0, played.err);
    const p = JSON.parse(played.out) as {
      record: string;
      played: { phase: string; results: Record<string, { order: string; result: string }[]> };
    };
    assert.equal(p.played.phase, "S1901M", "the phase played");
    assert.equal(p.played.results.england?.[0]?.result, "succeeds", "with its results");
    const replay = await cli(["replay", game, "--json"]);
    assert.deepEqual(JSON.parse(replay.out), { record: game, ok: true, phases: 1 }, "replay");
    const check = await cli([
      "variant",
      "check",
      new URL("src/variants/europe1935/europe1935.json", root).pathname,
      "--json",
    ]);
    assert.equal(check.status, 0, check.err);
    const c = JSON.parse(check.out) as { ok: boolean; variant: string; centres: number };
    assert.deepEqual([c.ok, c.variant, c.centres], [true, "europe1935", 60], "variant check");
    const bad = join(dir, "bad-variant.json");
    writeFileSync(bad, JSON.stringify({ id: "bad" }));
    const refused = await cli(["variant", "check", bad, "--json"]);
    assert.equal(refused.status, 1, "problems exit 1");
    const r = JSON.parse(refused.out) as { ok: boolean; problems: string[] };
    assert.ok(!r.ok && r.problems.some((x) => /name: is required/.test(x)), "lists them");
    const svg = join(dir, "json.svg");
    const drawn = await cli(["render", "--record", game, "--out", svg, "--json"]);
    assert.deepEqual(
      JSON.parse(drawn.out),
      { out: svg, variant: "classical", phase: "F1901M" },
      "render",
    );
  });

  test("global new, play and replay print one JSON line each", async () => {
    const game = join(dir, "global.json");
    const made = await cli(["global", "new", "--seed", "2", "--out", game, "--json"]);
    assert.deepEqual(
      JSON.parse(made.out),
      { out: game, variant: "global", seed: 2, turn: 1 },
      "new",
    );
    const orders = join(dir, "global-orders.txt");
    writeFileSync(orders, "POWER 3\nMO 7 233\nPOWER 4\nMO 14 11\n");
    const reports = join(dir, "global-reports");
    const played = await cli(["global", "play", game, orders, "--reports", reports, "--json"]);
    assert.equal(played.status, 0, played.err);
    const p = JSON.parse(played.out) as {
      turn: number;
      reports: string;
      refused: { power: number; text: string; status: string }[];
    };
    assert.deepEqual([p.turn, p.reports], [1, reports], "the turn and where its reports are");
    assert.deepEqual(
      p.refused.map((r) => [r.power, r.text, r.status]),
      [[4, "MO 14 11", "rejected"]],
      "the refused command",
    );
    const replay = await cli(["global", "replay", game, "--json"]);
    assert.deepEqual(JSON.parse(replay.out), { game, ok: true, turns: 1 }, "replay");
  });

  test("render --variant discovery without a seed draws seed 1's map and says so", async () => {
    const out = join(dir, "discovery.svg");
    const text = await cli(["render", "--variant", "discovery", "--out", out]);
    assert.equal(text.status, 0, text.err);
    assert.match(text.out, /map seed 1, the default; choose another with --seed S/, "says which");
    const json = await cli([
      "render",
      "--variant",
      "discovery",
      "--seed",
      "7",
      "--out",
      out,
      "--json",
    ]);
    const j = JSON.parse(json.out) as { variant: string; seed: number };
    assert.deepEqual([j.variant, j.seed], ["discovery", 7], "the seed asked for");
  });

  test("render --record with {phase} in --out draws every phase of the game", async () => {
    const game = join(dir, "frames-game.json");
    assert.equal((await cli(["new", "--out", game])).status, 0, "new");
    const orders = join(dir, "frames-orders.json");
    writeFileSync(orders, JSON.stringify({ france: ["A par - bur"] }));
    assert.equal((await cli(["play", game, orders])).status, 0, "S1901M");
    assert.equal((await cli(["play", game, orders])).status, 0, "F1901M");
    const r = await cli([
      "render",
      "--record",
      game,
      "--out",
      join(dir, "f-{phase}.svg"),
      "--json",
    ]);
    assert.equal(r.status, 0, r.err);
    const j = JSON.parse(r.out) as { phases: number; files: string[] };
    assert.equal(j.phases, 3, "S1901M, F1901M and the position after");
    for (const f of j.files) assert.match(readFileSync(f, "utf8"), /^<svg /, `${f} drawn`);
    const both = await cli([
      "render",
      "--record",
      game,
      "--phase",
      "S1901M",
      "--out",
      "{phase}.svg",
    ]);
    assert.equal(both.status, 2, "--phase and {phase} together are refused");
  });
});

describe("the definitions are the documentation", () => {
  test("README's 'Using it' lines are commands and options that exist; every command is there", () => {
    const readme = readFileSync(new URL("README.md", root), "utf8");
    const section = readme.slice(
      readme.indexOf("## Using it"),
      readme.indexOf("\n## ", readme.indexOf("## Using it") + 3),
    );
    const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
    const lines = block.split("\n").filter((l) => l.startsWith("bin/entente"));
    assert.ok(lines.length > 10, "the section has its examples");
    const seen = new Set<string>();
    for (const line of lines) {
      const tokens = line
        .replace(/\s+#.*$/, "")
        .split(/\s+/)
        .slice(1);
      let cmd: Command = program;
      for (let i = 0; i < tokens.length; i++) {
        const t = tokens[i]!;
        if (["<", ">", "|"].includes(t)) break;
        if (t.startsWith("-")) {
          const o = cmd.options.find((x) => x.long === t || x.short === t);
          assert.ok(
            o || t === "--help" || t === "-h",
            `${line}: ${t} is an option of ${commandPath(cmd)}`,
          );
          if (o && (o.required || o.optional)) i++;
          continue;
        }
        const sub = cmd.commands.find((c) => c.name() === t);
        if (sub) {
          cmd = sub;
          seen.add(commandPath(cmd));
        } else if (cmd === program) {
          assert.equal(t, "help", `${line}: ${t} is a command`);
        }
      }
      assert.ok(
        cmd.commands.length === 0 || cmd === program,
        `${line}: ${commandPath(cmd)} needs one of its commands`,
      );
    }
    for (const c of program.commands)
      assert.ok(seen.has(commandPath(c)), `README's 'Using it' shows entente ${c.name()}`);
  });

  test("docs/cli.md's reference is the one the definitions write (scripts/cli-docs.ts)", () => {
    const doc = readFileSync(new URL("docs/cli.md", root), "utf8");
    const reference = cliReference(program);
    assert.ok(
      doc.includes(reference),
      "docs/cli.md differs from the definitions: run node --import tsx scripts/cli-docs.ts",
    );
    for (const c of commands) assert.ok(doc.includes(`### \`${commandPath(c)}\``), commandPath(c));
  });
});

describe("shell completion from the definitions", () => {
  const bash = completionScript(program, "bash");
  const complete = (line: string[]): string[] => {
    const script = `${bash}\nCOMP_WORDS=(${line.map((w) => `'${w}'`).join(" ")}); COMP_CWORD=${line.length - 1}; _entente; printf '%s\\n' "\${COMPREPLY[@]}"`;
    const r = runSync("bash", ["-c", script], { encoding: "utf8" });
    assert.equal(r.status, 0, `bash ran the script: ${r.stderr}`);
    return r.stdout.split("\n").filter((w) => w !== "");
  };

  test("bash: commands, subcommands, options, variant ids, profiles and choices", () => {
    assert.deepEqual(complete(["entente", "sel"]), ["selfplay"], "a command");
    for (const c of commands.filter((x) => x.commands.length > 0)) {
      const got = complete(["entente", ...words(c), ""]);
      for (const s of c.commands)
        assert.ok(got.includes(s.name()), `${commandPath(c)} ${s.name()}`);
    }
    for (const c of commands) {
      const got = complete(["entente", ...words(c), "--"]);
      for (const o of c.options)
        if (o.long) assert.ok(got.includes(o.long), `${commandPath(c)} ${o.long}`);
    }
    assert.deepEqual(
      complete(["entente", "selfplay", "--variant", "e"]),
      ["europe1935"],
      "variant ids",
    );
    assert.deepEqual(
      complete(["entente", "adjudicate", "--rules", "h"]),
      ["houserules"],
      "profiles",
    );
    assert.deepEqual(complete(["entente", "render", "--palette", "c"]), ["colorblind"], "choices");
    assert.deepEqual(complete(["entente", "completion", ""]), ["bash", "zsh"], "an argument's");
  });

  test("zsh: the same definitions, and the script is valid zsh where zsh is installed", (t) => {
    const zsh = completionScript(program, "zsh");
    assert.match(zsh, /^#compdef entente\n/, "a completion function file");
    for (const c of commands) assert.ok(zsh.includes(`" ${words(c).join(" ")}"`), commandPath(c));
    const file = join(dir, "_entente");
    writeFileSync(file, zsh);
    const check = runSync("zsh", ["-n", file], { encoding: "utf8" });
    if (check.error) {
      t.skip("zsh is not installed here");
      return;
    }
    assert.equal(check.status, 0, `zsh -n: ${check.stderr}`);
  });
});
