// A built-in player against six DumbBots (issue 31), over the DAIDE host on a loopback port:
//   node --import tsx bench/dumbbot.ts --dumbbot PATH/bin/dumbbot [--bot entente]
//        [--games 14] [--until 1911] [--first 0]
// Game g puts the bot on classical power g mod 7: the variant's powers are turned so that
// that power comes last, and the host's built-in seat is the last (the map is the standard
// one: DAIDE speaks of powers by token, so nothing else changes). Six DumbBot processes take
// the other seats; each is started in its own process group, in a temporary directory (it
// writes its logs where it runs), and ended with the game. The game runs to a solo or the
// start of --until (a draw). Prints one JSON line per game and a summary line: the bot's mean
// centres, the DumbBots' mean, solos and draws, and the machine's load before and after.
// docs/bots.md gives the figures.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { getBot } from "../src/bots/index.ts";
import { DaideHost } from "../src/daide/host.ts";
import { DATC_RULES } from "../src/engine/rules.ts";
import { standardScenario } from "../src/engine/scenario.ts";
import { classical } from "../src/variants/classical/index.ts";

const { values: args } = parseArgs({
  options: {
    dumbbot: { type: "string" },
    bot: { type: "string", default: "entente" },
    games: { type: "string", default: "14" },
    until: { type: "string", default: "1911" },
    first: { type: "string", default: "0" },
  },
});
if (!args.dumbbot) {
  console.error("give --dumbbot PATH (the DAIDE client project's bin/dumbbot)");
  process.exit(2);
}
const bot = getBot(args.bot);
if (!bot) {
  console.error(`unknown bot "${args.bot}"`);
  process.exit(2);
}
const games = Number(args.games);
const until = Number(args.until);
const first = Number(args.first);
const load = () => loadavg().map((x) => Number(x.toFixed(2)));
const loadBefore = load();
const dir = mkdtempSync(join(tmpdir(), "entente-dumbbot-"));
const running = new Set<ChildProcess>();
const endAll = () => {
  for (const c of running)
    try {
      process.kill(-c.pid!, "SIGTERM");
    } catch {
      // already gone
    }
  running.clear();
};
process.on("exit", () => {
  endAll();
  rmSync(dir, { recursive: true, force: true });
});

const n = classical.powers.length;
let mine = 0;
let theirs = 0;
let solos = 0;
let theirSolos = 0;
let draws = 0;
for (let g = first; g < first + games; g++) {
  const k = g % n;
  const powers = [...classical.powers.slice(k + 1), ...classical.powers.slice(0, k + 1)];
  const scenario = standardScenario({ ...classical, powers });
  const host = new DaideHost({
    scenario,
    rules: DATC_RULES,
    seed: 1000 + g,
    moveTime: 30,
    until,
    bots: [bot],
    port: 0,
    host: "127.0.0.1",
    id: `dumbbot-${g}`,
    log: () => {},
  });
  const port = await host.listen();
  for (let i = 0; i < 6; i++) {
    const c = spawn(args.dumbbot, ["-i127.0.0.1", `-p${port}`], {
      detached: true,
      stdio: "ignore",
      cwd: dir,
    });
    running.add(c);
    // One at a time: the seats are taken in the order the clients name themselves.
    await new Promise((r) => setTimeout(r, 100));
  }
  const s = await host.done;
  endAll();
  await host.close();
  const me = s.powers.find((p) => p.bot !== null)!;
  const others = s.powers.filter((p) => p.bot === null);
  const mean = others.reduce((a, p) => a + p.centres, 0) / others.length;
  mine += me.centres;
  theirs += mean;
  if (s.result.kind === "solo") {
    if (s.result.winner === me.power) solos++;
    else theirSolos++;
  } else draws++;
  console.log(
    JSON.stringify({
      game: g,
      power: me.plays.join("+"),
      centres: me.centres,
      dumbbotMean: Number(mean.toFixed(2)),
      result: s.result.kind === "solo" ? `solo ${s.result.winner}` : "draw",
      end: s.endPhase,
      clients: [...new Set(others.map((p) => `${p.client} ${p.version}`))],
    }),
  );
}
console.log(
  JSON.stringify({
    bot: bot.id,
    games,
    until,
    botMeanCentres: Number((mine / games).toFixed(2)),
    dumbbotMeanCentres: Number((theirs / games).toFixed(2)),
    botSolos: solos,
    dumbbotSolos: theirSolos,
    draws,
    cpu: cpus()[0]?.model,
    cores: cpus().length,
    loadBefore,
    loadAfter: load(),
  }),
);
process.exit(0);
