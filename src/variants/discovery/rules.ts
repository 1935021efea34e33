import { type FamilyHooks, familyGameRules, familyHosting } from "../global/rules.ts";
import { initialState } from "../global/state.ts";
import type { AreaId } from "../global/types.ts";
import type { DiscoveryMap } from "./areas.ts";
import { initialKnowledge, type Knowledge } from "./fog.ts";
import { adjudicateDiscoveryTurn, discoveryReport } from "./game.ts";
import { MAX_PLAYERS, MIN_PLAYERS } from "./generate.ts";
import { checkDiscoveryLines } from "./host.ts";
import {
  DEFAULT_PLAYERS,
  describeMap,
  discoveryMap,
  discoveryRandomLines,
  mapOfPosition,
  readKnowledge,
} from "./index.ts";
import { PLAYER_NAMES } from "./mapdata.ts";

/** What Age of Discovery adds to global's state: the game's map and what each player knows. */
export interface DiscoveryPart {
  readonly map: DiscoveryMap;
  readonly known: Knowledge;
}

/**
 * Age of Discovery (seed 004, appendix C): global's rules on a map generated from the game's
 * seed for its player count, commands read in each player's own frame, reports and the board
 * fogged to what each player knows.
 */
const discoveryHooks: FamilyHooks<DiscoveryPart> = {
  id: "discovery",
  name: "Age of Discovery",
  players: { min: MIN_PLAYERS, max: MAX_PLAYERS, default: DEFAULT_PLAYERS },
  setup(seed, players) {
    const { map, global } = discoveryMap(seed, players);
    const game = initialState(global, seed);
    return { map: global, game, extra: { map, known: initialKnowledge(map, game) } };
  },
  fromJson(json) {
    const { map, global } = mapOfPosition(json);
    return {
      map: global,
      extra: (game) => ({ map, known: readKnowledge(map, global, game, json.known) }),
    };
  },
  toJson: (s) => ({
    map: { seed: s.extra.map.seed, players: s.extra.map.players },
    known: s.extra.known,
  }),
  check: (s, power, lines) =>
    checkDiscoveryLines(s.extra.map, s.map, s.game, power, lines).map((v) =>
      v.ok
        ? { line: v.line, text: v.text, ok: true, order: v.text }
        : { line: v.line, text: v.text, ok: false, reason: v.reason ?? "not understood" },
    ),
  adjudicate(s, orders) {
    const turn = adjudicateDiscoveryTurn(
      s.extra.map,
      s.map,
      s.game,
      s.extra.known,
      orders,
      s.rules,
    );
    return { result: turn.result, extra: { map: s.extra.map, known: turn.known } };
  },
  report: (s, result, power, label) =>
    discoveryReport(s.extra.map, s.map, result, s.extra.known, power, label),
  random: (s, power, seed) =>
    discoveryRandomLines(s.extra.map, s.map, s.game, s.extra.known, power, seed),
  visible: (s, powers) => new Set<AreaId>(powers.flatMap((p) => s.extra.known[p] ?? [])),
  // Players 1 to N, named as the generated map names them (mapdata.ts); seats by number.
  seats: (players) =>
    PLAYER_NAMES.slice(0, players).map((name, i) => ({
      power: String(i + 1),
      name: `${i + 1}-${name}`,
    })),
  turnJson: (result) => ({ spies: result.spies }),
  moderatorMap: (s) => describeMap(s.extra.map.seed, s.extra.map.players),
};

/** Age of Discovery as game rules (src/engine/game.ts). */
export const discoveryRules = familyGameRules(discoveryHooks);

/** What a host of Age of Discovery games asks beyond its rules. */
export const discoveryHosting = familyHosting(discoveryHooks, discoveryRules);
