import { drawMap } from "../variants/discovery/draw.ts";
import { GenerateError } from "../variants/discovery/generate.ts";
import { discoveryMap as mapOf, readKnowledge } from "../variants/discovery/index.ts";
import {
  newDiscoveryGame,
  parseDiscoveryOrders,
  playDiscoveryTurn,
  readDiscoveryGame,
  replayDiscoveryGame,
  selfPlayDiscovery,
} from "../variants/discovery/moderator.ts";
import { GlobalPositionError, readGlobalPosition } from "../variants/global/position.ts";
import {
  type NewGameArgs,
  newGameFile,
  playCommand,
  readJsonFile,
  replayCommand,
  runShell,
  type ShellResult,
} from "./moderator.ts";

/*
 * `entente discovery ...`: the moderator's shell for Age of Discovery (docs/discovery.md),
 * the counterpart of `entente global`. The options are read by the command line's
 * definitions (src/cli/program.ts); each function returns the text for standard output and
 * an exit status, or an error message (status 2).
 */

const shell = (body: () => ShellResult) => runShell(body, [GenerateError]);

export function discoveryNew(o: NewGameArgs & { players: number }) {
  return shell(() =>
    newGameFile(
      o,
      (rules) => newDiscoveryGame(o.seed, o.players, rules),
      { variant: "discovery", seed: o.seed, players: o.players, turn: 1 },
      `a new game of Age of Discovery for ${o.players} players (map seed ${o.seed}), turn 1`,
    ),
  );
}

export const discoveryPlay = playCommand(
  shell,
  (json, text) => {
    const game = readDiscoveryGame(json);
    return playDiscoveryTurn(game, parseDiscoveryOrders(game, text));
  },
  (turn, p) => `turn${turn}-player${p}.txt`,
);

export const discoveryReplay = replayCommand(shell, (json) => {
  const game = readDiscoveryGame(json);
  return { turns: game.history.length, ok: replayDiscoveryGame(game) };
});

/** The moderator's view of the whole map, or what player `player` knows of it. */
export function discoveryMap(file: string, o: { player?: string } = {}) {
  return shell(() => {
    const game = readDiscoveryGame(readJsonFile(file));
    const { map: dmap, global: gmap } = mapOf(game.seed, game.players);
    const state = readGlobalPosition(gmap, game.position);
    const unitAt = new Map(state.units.map((u) => [u.area, u]));
    const sight = (a: number) => {
      const u = unitAt.get(a);
      const owner = state.owners[a];
      return {
        ...(owner !== undefined ? { owner } : {}),
        ...(u ? { unit: { power: u.power, kind: u.kind } } : {}),
      };
    };
    if (o.player === undefined) {
      // The moderator's view: everything, in player 1's frame.
      return {
        text: drawMap(
          dmap,
          1,
          dmap.areas.map((a) => a.id),
          sight,
        ),
        status: 0,
      };
    }
    const p = Number(o.player);
    if (!Number.isInteger(p) || p < 1 || p > game.players) {
      throw new GlobalPositionError(`--player must be 1 to ${game.players}, not ${o.player}`);
    }
    const known = readKnowledge(dmap, gmap, state, game.position.known)[p] ?? [];
    return { text: drawMap(dmap, p, known, sight), status: 0 };
  });
}

export function discoverySelfPlay(o: { seed: number; players: number; games: number }) {
  return shell(() => {
    if (o.games < 1) throw new GlobalPositionError("--games must be at least 1");
    const lines: string[] = [];
    for (let g = 0; g < o.games; g++) {
      let turns = 0;
      let rejected = 0;
      const end = selfPlayDiscovery(o.seed + g, o.players, 60, (r) => {
        turns++;
        rejected += r.results.filter((c) => c.status === "rejected").length;
      });
      lines.push(
        JSON.stringify({
          seed: o.seed + g,
          players: o.players,
          turns,
          winners: end.position.winners ?? [],
          rejected,
        }),
      );
    }
    return { text: `${lines.join("\n")}\n`, status: 0 };
  });
}
