import { drawMap } from "../variants/discovery/draw.ts";
import { GenerateError } from "../variants/discovery/generate.ts";
import { DEFAULT_PLAYERS, discoveryMap, readKnowledge } from "../variants/discovery/index.ts";
import {
  newDiscoveryGame,
  parseDiscoveryOrders,
  playDiscoveryTurn,
  readDiscoveryGame,
  replayDiscoveryGame,
  selfPlayDiscovery,
} from "../variants/discovery/moderator.ts";
import {
  GlobalPositionError,
  readGlobalPosition,
  readGlobalRules,
} from "../variants/global/position.ts";
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
 * `entente discovery ...`: the moderator's shell for Age of Discovery (docs/discovery.md),
 * the counterpart of `entente global`. Returns the text for standard output and an exit
 * status, or an error message (status 2).
 */
export const DISCOVERY_USAGE = `usage:
  entente discovery new [--seed S] [--players 9-20] [--convoy 7.6|5.5] --out GAME.json
  entente discovery play GAME.json ORDERS.txt [--reports DIR]
  entente discovery replay GAME.json
  entente discovery map GAME.json [--player P]     (moderator: the whole map, or what P knows)
  entente discovery selfplay [--seed S] [--players 9-20] [--games N]`;

export function cmdDiscovery(argv: readonly string[]): ShellResult {
  return runShell(() => {
    const [sub, ...rest] = argv;
    const args = new ShellArgs(rest);
    if (sub === "new") {
      const seed = args.int("--seed", 1);
      const players = args.int("--players", DEFAULT_PLAYERS);
      const convoy = args.take("--convoy");
      const out = args.take("--out");
      args.files(0, DISCOVERY_USAGE);
      if (!out) throw new GlobalPositionError(DISCOVERY_USAGE);
      const rules = readGlobalRules(convoy ? { convoyDisruption: convoy } : undefined);
      writeNewGame(out, newDiscoveryGame(seed, players, rules));
      return {
        text: `${out}: a new game of Age of Discovery for ${players} players (map seed ${seed}), turn 1\n`,
        status: 0,
      };
    }
    if (sub === "play") {
      const reportsDir = args.take("--reports");
      const [file, ordersFile] = args.files(2, DISCOVERY_USAGE) as [string, string];
      return playFromFiles(
        file,
        ordersFile,
        reportsDir,
        (json, text) => {
          const game = readDiscoveryGame(json);
          return playDiscoveryTurn(game, parseDiscoveryOrders(game, text));
        },
        (turn, p) => `turn${turn}-player${p}.txt`,
      );
    }
    if (sub === "replay") {
      const [file] = args.files(1, DISCOVERY_USAGE) as [string];
      const game = readDiscoveryGame(readJsonFile(file));
      return replayText(file, game.history.length, replayDiscoveryGame(game));
    }
    if (sub === "map") {
      const playerText = args.take("--player");
      const [file] = args.files(1, DISCOVERY_USAGE) as [string];
      const game = readDiscoveryGame(readJsonFile(file));
      const { map: dmap, global: gmap } = discoveryMap(game.seed, game.players);
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
      if (playerText === undefined) {
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
      const p = Number(playerText);
      if (!Number.isInteger(p) || p < 1 || p > game.players) {
        throw new GlobalPositionError(`--player must be 1 to ${game.players}, not ${playerText}`);
      }
      const known = readKnowledge(dmap, gmap, state, game.position.known)[p] ?? [];
      return { text: drawMap(dmap, p, known, sight), status: 0 };
    }
    if (sub === "selfplay") {
      const seed = args.int("--seed", 1);
      const players = args.int("--players", DEFAULT_PLAYERS);
      const games = args.int("--games", 1);
      args.files(0, DISCOVERY_USAGE);
      if (games < 1) throw new GlobalPositionError(DISCOVERY_USAGE);
      const lines: string[] = [];
      for (let g = 0; g < games; g++) {
        let turns = 0;
        let rejected = 0;
        const end = selfPlayDiscovery(seed + g, players, 60, (r) => {
          turns++;
          rejected += r.results.filter((c) => c.status === "rejected").length;
        });
        lines.push(
          JSON.stringify({
            seed: seed + g,
            players,
            turns,
            winners: end.position.winners ?? [],
            rejected,
          }),
        );
      }
      return { text: `${lines.join("\n")}\n`, status: 0 };
    }
    throw new GlobalPositionError(DISCOVERY_USAGE);
  }, [GenerateError]);
}
