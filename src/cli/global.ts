import {
  newGlobalGame,
  parseOrderFile,
  playGlobalTurn,
  readGlobalGame,
  replayGlobalGame,
  selfPlayGame,
} from "../variants/global/moderator.ts";
import { GlobalPositionError, readGlobalRules } from "../variants/global/position.ts";
import { worldMap } from "../variants/global/world.ts";
import {
  playFromFiles,
  readJsonFile,
  replayText,
  runShell,
  ShellArgs,
  type ShellResult,
  writeNewGame,
} from "./moderator.ts";

/**
 * `entente global ...`: the moderator's shell around the pure engine (docs/global.md).
 * Returns the text for standard output and an exit status, or an error message (status 2).
 */
export const GLOBAL_USAGE = `usage:
  entente global new [--seed S] [--convoy 7.6|5.5] --out GAME.json
  entente global play GAME.json ORDERS.txt [--reports DIR]
  entente global replay GAME.json
  entente global selfplay [--seed S] [--games N]`;

export function cmdGlobal(argv: readonly string[]): ShellResult {
  return runShell(() => {
    const [sub, ...rest] = argv;
    const args = new ShellArgs(rest);
    if (sub === "new") {
      const seed = args.int("--seed", 1);
      const convoy = args.take("--convoy");
      const out = args.take("--out");
      args.files(0, GLOBAL_USAGE);
      if (!out) throw new GlobalPositionError(GLOBAL_USAGE);
      const rules = readGlobalRules(convoy ? { convoyDisruption: convoy } : undefined);
      writeNewGame(out, newGlobalGame(worldMap, seed, rules));
      return { text: `${out}: a new game of Global Diplomacy, turn 1\n`, status: 0 };
    }
    if (sub === "play") {
      const reportsDir = args.take("--reports");
      const [file, ordersFile] = args.files(2, GLOBAL_USAGE) as [string, string];
      return playFromFiles(
        file,
        ordersFile,
        reportsDir,
        (json, text) =>
          playGlobalTurn(worldMap, readGlobalGame(worldMap, json), parseOrderFile(worldMap, text)),
        (turn, p) => `turn${turn}-power${p}.txt`,
      );
    }
    if (sub === "replay") {
      const [file] = args.files(1, GLOBAL_USAGE) as [string];
      const game = readGlobalGame(worldMap, readJsonFile(file));
      return replayText(file, game.history.length, replayGlobalGame(worldMap, game).ok);
    }
    if (sub === "selfplay") {
      const seed = args.int("--seed", 1);
      const games = args.int("--games", 1);
      args.files(0, GLOBAL_USAGE);
      if (games < 1) throw new GlobalPositionError(GLOBAL_USAGE);
      const lines: string[] = [];
      let bad = 0;
      for (let g = 0; g < games; g++) {
        let turns = 0;
        let rejected = 0;
        const end = selfPlayGame(worldMap, seed + g, 60, undefined, (r) => {
          turns++;
          rejected += r.results.filter((c) => c.status === "rejected").length;
          const areas = new Set(r.after.units.map((u) => u.area));
          if (areas.size !== r.after.units.length) bad++;
        });
        lines.push(JSON.stringify({ seed: seed + g, turns, winners: end.winners ?? [], rejected }));
      }
      return { text: `${lines.join("\n")}\n`, status: bad === 0 ? 0 : 1 };
    }
    throw new GlobalPositionError(GLOBAL_USAGE);
  });
}
