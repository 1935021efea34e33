import {
  newGlobalGame,
  parseOrderFile,
  playGlobalTurn,
  readGlobalGame,
  replayGlobalGame,
  selfPlayGame,
} from "../variants/global/moderator.ts";
import { GlobalPositionError } from "../variants/global/position.ts";
import { worldMap } from "../variants/global/world.ts";
import {
  type NewGameArgs,
  newGameFile,
  playCommand,
  replayCommand,
  runShell,
} from "./moderator.ts";

/*
 * `entente global ...`: the moderator's shell around the pure engine (docs/global.md). The
 * options are read by the command line's definitions (src/cli/program.ts); each function
 * returns the text for standard output and an exit status, or an error message (status 2).
 */

export function globalNew(o: NewGameArgs) {
  return runShell(() =>
    newGameFile(
      o,
      (rules) => newGlobalGame(worldMap, o.seed, rules),
      { variant: "global", seed: o.seed, turn: 1 },
      "a new game of Global Diplomacy, turn 1",
    ),
  );
}

export const globalPlay = playCommand(
  runShell,
  (json, text) =>
    playGlobalTurn(worldMap, readGlobalGame(worldMap, json), parseOrderFile(worldMap, text)),
  (turn, p) => `turn${turn}-power${p}.txt`,
);

export const globalReplay = replayCommand(runShell, (json) => {
  const game = readGlobalGame(worldMap, json);
  return { turns: game.history.length, ok: replayGlobalGame(worldMap, game).ok };
});

export function globalSelfPlay(o: { seed: number; games: number }) {
  return runShell(() => {
    if (o.games < 1) throw new GlobalPositionError("--games must be at least 1");
    const lines: string[] = [];
    let bad = 0;
    for (let g = 0; g < o.games; g++) {
      let turns = 0;
      let rejected = 0;
      const end = selfPlayGame(worldMap, o.seed + g, 60, undefined, (r) => {
        turns++;
        rejected += r.results.filter((c) => c.status === "rejected").length;
        const areas = new Set(r.after.units.map((u) => u.area));
        if (areas.size !== r.after.units.length) bad++;
      });
      lines.push(JSON.stringify({ seed: o.seed + g, turns, winners: end.winners ?? [], rejected }));
    }
    return { text: `${lines.join("\n")}\n`, status: bad === 0 ? 0 : 1 };
  });
}
