// The family bot (src/bots/family.ts) against random players in a game family (issue 31):
//   node --import tsx bench/family-bots.ts --family global [--games 4] [--turns 10] [--first 1000]
// Game g is set up with seed first+g; the family bot plays every other power (the even ones
// in even games, the odd ones in odd games), the rules' random sets the rest, to the end of
// --turns turns or the game's end. Prints one line per game (each side's mean supply points,
// the leader and whose it is, the winners if the game ended) and a summary: each side's mean
// supply points, centres and units, the games a bot power led or won, and the decision times
// (mean and most). docs/bots.md ("The game families") gives the figures.
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { drawSeed } from "../src/bots/family.ts";
import type { Opaque } from "../src/engine/game.ts";
import { familyBotLines } from "../src/judge/family-rules.ts";
import { gameFamily } from "../src/variants/game-rules.ts";

const { values: args } = parseArgs({
  options: {
    family: { type: "string", default: "global" },
    games: { type: "string", default: "4" },
    turns: { type: "string", default: "10" },
    first: { type: "string", default: "1000" },
  },
});
const f = gameFamily(args.family);
if (!f) {
  console.error(`no game family "${args.family}"; the families are global, discovery`);
  process.exit(2);
}
const games = Number(args.games);
const turns = Number(args.turns);
const first = Number(args.first);
type Side = { supply: number; centres: number; units: number; n: number };
const sides = {
  bot: { supply: 0, centres: 0, units: 0, n: 0 } as Side,
  random: { supply: 0, centres: 0, units: 0, n: 0 } as Side,
};
let led = 0;
let won = 0;
let ms = 0;
let most = 0;
let decisions = 0;
const loadBefore = loadavg()[0]!;
for (let g = 0; g < games; g++) {
  const seed = first + g;
  let s = f.rules.setup(seed);
  const powers = f.rules.powers(s).map((p) => p.id);
  const isBot = (p: string) => (powers.indexOf(p) + g) % 2 === 0;
  let winners: readonly string[] | null = null;
  for (let t = 0; t < turns && winners === null; t++) {
    const sets = new Map<string, Opaque<"orders">>();
    for (const p of f.rules.mustOrder(s)) {
      const i = powers.indexOf(p);
      let lines: readonly string[];
      if (isBot(p)) {
        const t0 = performance.now();
        lines = familyBotLines(f, s, p, drawSeed(seed, `bot/${t}`, i));
        const took = performance.now() - t0;
        ms += took;
        most = Math.max(most, took);
        decisions++;
      } else lines = f.lines(f.rules.random(s, p, drawSeed(seed, `random/${t}`, i)));
      sets.set(p, f.rules.read(s, p, lines.join("\n")).orders);
    }
    const r = f.rules.resolve(s, sets);
    s = r.next;
    winners = r.ended?.winners ?? null;
  }
  const tally = f.hosting.shown(s, { kind: "gm" }).tally;
  for (const p of powers) {
    const side = isBot(p) ? sides.bot : sides.random;
    side.supply += tally[p]?.supplyPoints ?? 0;
    side.centres += tally[p]?.centres ?? 0;
    side.units += tally[p]?.units ?? 0;
    side.n++;
  }
  const leader = [...powers].sort(
    (a, b) => (tally[b]?.supplyPoints ?? 0) - (tally[a]?.supplyPoints ?? 0),
  )[0]!;
  if (isBot(leader)) led++;
  if (winners?.some(isBot)) won++;
  const mean = (bot: boolean) => {
    const ps = powers.filter((p) => isBot(p) === bot);
    return ps.reduce((n, p) => n + (tally[p]?.supplyPoints ?? 0), 0) / ps.length;
  };
  console.log(
    JSON.stringify({
      game: g,
      seed,
      botSupply: +mean(true).toFixed(2),
      randomSupply: +mean(false).toFixed(2),
      leader,
      leaderIs: isBot(leader) ? "bot" : "random",
      winners,
    }),
  );
}
const show = (x: Side) =>
  `supply ${(x.supply / x.n).toFixed(2)}, centres ${(x.centres / x.n).toFixed(2)}, units ${(x.units / x.n).toFixed(2)}`;
console.log(
  `${f.rules.id}, ${games} games x ${turns} turns: bot ${show(sides.bot)}; random ${show(sides.random)}; a bot power led ${led} of ${games}, won ${won}; a decision ${(ms / Math.max(1, decisions)).toFixed(0)} ms mean, ${most.toFixed(0)} ms most (${decisions} decisions); load ${loadBefore.toFixed(1)} -> ${loadavg()[0]!.toFixed(1)}`,
);
