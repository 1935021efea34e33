// The games of `bench selfplay`, fingerprinted: node --import tsx bench/selfplay-hash.ts
// [games] [seed] [until]. Prints the phases played and a SHA-256 over every phase's results
// (orders, results, reasons, explanations), next position, events and state, through the
// typed path. A change to the engine's speed must leave it unchanged (docs/performance.md):
// 200 games, seed 12345, until 1935 give 20185 phases and sha256 e142cf1b...
import { createHash } from "node:crypto";
import { DATC_RULES } from "../src/engine/rules.ts";
import { selfPlayGame } from "../src/engine/selfplay.ts";
import { classicalScenarios } from "../src/variants/classical/scenarios.ts";

const [games = "200", seed = "12345", until = "1935"] = process.argv.slice(2);
const hash = createHash("sha256");
const plain = (_key: string, v: unknown): unknown => (v instanceof Map ? [...v] : v);
let phases = 0;
for (let g = 0; g < Number(games); g++) {
  selfPlayGame({
    scenario: classicalScenarios[0]!,
    rules: DATC_RULES,
    seed: Number(seed) + g,
    untilYear: Number(until),
    keepRecord: false,
    onPhase: (_before, s) => {
      phases++;
      const r = s.result;
      const results = r.results.map((o) => ({
        power: o.power,
        text: o.text,
        order: o.order,
        result: o.result,
        reason: o.reason,
        explanation: o.explanation,
      }));
      const { phase, next, winner, dislodged } = r;
      const { events, seatWinner, civilDisorder, state } = s;
      hash.update(
        JSON.stringify(
          { phase, results, next, winner, dislodged, events, seatWinner, civilDisorder, state },
          plain,
        ),
      );
    },
  });
}
console.log(
  JSON.stringify({ games: Number(games), seed: Number(seed), phases, sha256: hash.digest("hex") }),
);
