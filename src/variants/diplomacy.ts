import { adjudicate } from "../engine/adjudicate.ts";
import {
  type BoardData,
  type GameRules,
  GameRulesError,
  type LineVerdict,
  type PhaseInfo,
  type Viewer,
} from "../engine/game.ts";
import { checkInvariants } from "../engine/invariants.ts";
import { powersToOrder } from "../engine/must-order.ts";
import { formatOrder } from "../engine/orders.ts";
import { readOrderSet } from "../engine/orderset.ts";
import { phaseName } from "../engine/phase.ts";
import { rngFor } from "../engine/random.ts";
import {
  type GameRecord,
  type GameState,
  gameWinner,
  newRecord,
  phaseRecord,
  RECORD_FORMAT,
  RecordError,
  recordState,
  step,
} from "../engine/record.ts";
import type { OrderResult } from "../engine/results.ts";
import { type RuleOptions, readRules } from "../engine/rules.ts";
import { type Scenario, unplayedPowers } from "../engine/scenario.ts";
import { randomOrders } from "../engine/selfplay.ts";
import type { Position, PowerId } from "../engine/types.ts";
import type { Variant } from "../engine/variant.ts";
import { fileVariantProblem, scenarioOfRecord } from "./variant-files.ts";

/*
 * The game rules (src/engine/game.ts) of every Diplomacy variant, over the engine: classical,
 * europe1935 (its insurrections read and carried out through the Variant's own hooks), a
 * variant from a data file, the rulebook's scenarios for fewer players, and any rule options
 * (the house rules, sequential movement). The state is the game's record (what the judge
 * stores and `entente replay` checks) with where it stands; `encode` is the record itself.
 */

/** A Diplomacy game between two phases. */
export interface DiplomacyState {
  readonly scenario: Scenario;
  /** The record so far: start, seed, rules, every phase played. */
  readonly record: GameRecord;
  /** Where it stands: position, seats, scenario events, phases played. */
  readonly game: GameState;
  /** Who won (a power, or a seat by the scenario's own victory), or null. */
  readonly winner: string | null;
}

/** A power's orders as written, one per line, as the engine adjudicates them. */
export type DiplomacyOrders = readonly string[];

/** What a viewer may see: in Diplomacy the board is public; sequential schedules are not here. */
export interface DiplomacyView {
  readonly phase: PhaseInfo;
  readonly position: Position;
  /** Powers that must order now. */
  readonly mustOrder: readonly string[];
  /** The viewer's own powers (the GM's: none). */
  readonly yours: readonly string[];
  readonly winner: string | null;
}

const KIND = { M: "movement", R: "retreats", A: "adjustments" } as const;

/** A list mark (`1.`, `*`) before an order: not part of the order. */
const LIST_MARK = /^(?:[*•]+|\d{1,2}[.)])\s+/;

function checkPower(variant: Variant, power: string): PowerId {
  const p = variant.powers.find((x) => x.id === power);
  if (!p)
    throw new GameRulesError(
      `no power "${power}" in ${variant.name}; its powers are ${variant.powers.map((x) => x.id).join(", ")}`,
    );
  return p.id;
}

function stateOf(scenario: Scenario, record: GameRecord): DiplomacyState {
  return { scenario, record, game: recordState(scenario, record), winner: gameWinner(record) };
}

/** Seated powers: those a seat plays now (the others are always in civil disorder). */
function seated(s: DiplomacyState): Set<PowerId> {
  const unplayed = new Set(unplayedPowers(s.scenario.variant, s.game.seats));
  return new Set(s.scenario.variant.powers.map((p) => p.id).filter((p) => !unplayed.has(p)));
}

/**
 * The rules of one Diplomacy variant: `scenarios` the ways it is seated (one per player
 * count), `rules` the options a new game gets (a decoded game keeps its record's).
 */
export function diplomacyRules(
  variant: Variant,
  scenarios: readonly Scenario[],
  rules?: RuleOptions,
): GameRules<DiplomacyState, DiplomacyOrders, DiplomacyView> {
  const counts = scenarios.map((s) => s.seats.length);
  const players = {
    min: Math.min(...counts),
    max: Math.max(...counts),
    default: variant.powers.length,
  };
  const phase = (s: DiplomacyState): PhaseInfo => ({
    name: phaseName(s.game.position.phase),
    kind: KIND[s.game.position.phase.type],
    year: s.game.position.phase.year,
    index: s.game.index,
  });
  const mustOrder = (s: DiplomacyState): PowerId[] => {
    if (s.winner) return [];
    const seat = seated(s);
    return powersToOrder(variant, s.game.position, s.record.rules).filter((p) => seat.has(p));
  };
  const defaults = (): RuleOptions => {
    if (rules) return rules;
    const r = readRules(undefined, variant.rules);
    if (!r.ok) throw new GameRulesError(r.error);
    return r.rules;
  };
  return {
    id: variant.id,
    name: variant.name,
    players,
    setup(seed, count = players.default) {
      const scenario = scenarios.find((s) => s.seats.length === count);
      if (!scenario)
        throw new GameRulesError(
          `${variant.name} is played by ${[...new Set(counts)].sort((a, b) => b - a).join(", ")} players, not ${count}`,
        );
      return stateOf(scenario, newRecord(scenario, defaults(), seed));
    },
    phase,
    powers: () => variant.powers.map((p) => ({ id: p.id, name: p.name })),
    mustOrder,
    mayOrder(s) {
      if (s.winner) return [];
      const { position } = s.game;
      const alive = new Set<PowerId>([
        ...position.units.map((u) => u.power),
        ...position.dislodged.map((u) => u.power),
        ...position.centers.values(),
      ]);
      const seat = seated(s);
      return variant.powers.map((p) => p.id).filter((p) => alive.has(p) && seat.has(p));
    },
    read(s, power, text) {
      const p = checkPower(variant, power);
      const { position } = s.game;
      const rulesNow = s.record.rules;
      const set = readOrderSet(text, variant, p, { rules: rulesNow, position });
      // A sheet dated for another phase is refused whole: none of its orders are used.
      if (set.dateError && set.date) {
        return {
          verdicts: [
            { line: set.date.line, text: set.date.text, ok: false, reason: set.dateError },
          ],
          orders: [],
          final: set.final,
        };
      }
      const verdicts: LineVerdict[] = [];
      const mine: { line: number; text: string }[] = [];
      for (const l of set.lines) {
        if (l.kind !== "order") continue;
        if (l.power !== p) {
          verdicts.push({
            line: l.line,
            text: l.text,
            ok: false,
            reason: `this is ${variant.powers.find((x) => x.id === l.power)?.name ?? "another power"}'s order, not ${power}'s`,
          });
          continue;
        }
        mine.push({ line: l.line, text: l.text.replace(LIST_MARK, "") });
      }
      const orders = mine.map((m) => m.text);
      // The engine's verdict on each line: what adjudication will make of it (matched by
      // text: a variant's own orders come back after the standard ones).
      const byText = new Map<string, OrderResult[]>();
      for (const r of adjudicate(variant, position, new Map([[p, orders]]), rulesNow).results) {
        if (r.power !== p || r.text === null) continue;
        byText.set(r.text, [...(byText.get(r.text) ?? []), r]);
      }
      for (const m of mine) {
        const r = byText.get(m.text)?.shift();
        const line = set.lines.find((l) => l.line === m.line);
        if (r && r.result !== "invalid")
          verdicts.push({
            line: m.line,
            text: m.text,
            ok: true,
            order: r.order ? formatOrder(r.order) : (line?.order ?? m.text),
          });
        else
          verdicts.push({
            line: m.line,
            text: m.text,
            ok: false,
            reason: r?.reason ?? line?.reason ?? "not understood",
            ...(line?.suggestions && line.suggestions.length > 0
              ? { suggestions: line.suggestions }
              : {}),
          });
      }
      verdicts.sort((a, b) => a.line - b.line);
      return { verdicts, orders, final: set.final };
    },
    whenSilent: () => [],
    resolve(s, sets) {
      if (s.winner) throw new GameRulesError(`the game is over: ${s.winner} has won`);
      const orders = new Map<PowerId, readonly string[]>();
      for (const [power, list] of sets) orders.set(checkPower(variant, power), list);
      let played: ReturnType<typeof step>;
      try {
        played = step(s.scenario, s.record.rules, s.record.seed, s.game, orders);
      } catch (e) {
        if (e instanceof RecordError) throw new GameRulesError(e.message);
        throw e;
      }
      const phaseRec = phaseRecord(s.scenario, s.game.position, orders, played);
      const record = { ...s.record, phases: [...s.record.phases, phaseRec] };
      const winner = played.result.winner ?? played.seatWinner;
      return {
        phase: phaseRec.phase,
        results: played.result.results.map((r) => ({
          power: r.power,
          order: r.text ?? (r.order ? formatOrder(r.order) : ""),
          outcome: r.result,
          ...(r.reason !== null ? { reason: r.reason } : {}),
        })),
        next: { scenario: s.scenario, record, game: played.state, winner },
        ended: winner ? { kind: "solo", winners: [winner] } : null,
        silent: mustOrder(s).filter((p) => !sets.has(p)),
      };
    },
    view(s, viewer: Viewer) {
      return {
        phase: phase(s),
        position: s.game.position,
        mustOrder: mustOrder(s),
        yours: viewer.kind === "player" ? [...viewer.powers] : [],
        winner: s.winner,
      };
    },
    random(s, power, seed) {
      const p = checkPower(variant, power);
      const all = randomOrders(s.scenario, s.game, s.record.rules, rngFor(seed, s.game.index));
      return all.get(p) ?? [];
    },
    board() {
      const { map } = variant;
      return {
        id: variant.id,
        name: variant.name,
        areas: map.provinces.map((pr) => {
          const near = new Set<string>(map.armyNeighbours(pr.id));
          for (const at of map.locationsFor("F", pr.id))
            for (const n of map.fleetNeighbours(at)) near.add(n.province);
          return {
            id: pr.id,
            name: pr.name,
            kind: pr.kind,
            supply: pr.supplyCenter,
            neighbours: [...near].sort(),
          };
        }),
        powers: variant.powers.map((p) => ({ id: p.id, name: p.name })),
      } satisfies BoardData;
    },
    invariants: (s) => checkInvariants(variant, s.game.position),
    encode: (s) => s.record,
    decode(json) {
      const r = json as Partial<GameRecord> | null;
      if (typeof r !== "object" || r === null || r.format !== RECORD_FORMAT)
        throw new GameRulesError(
          `a stored ${variant.name} game is a record (format "${RECORD_FORMAT}")`,
        );
      if (r.variant !== variant.id)
        throw new GameRulesError(`this record is a ${r.variant} game, not ${variant.id}`);
      const scenario = scenarioOfRecord(r as GameRecord);
      if (!scenario)
        throw new GameRulesError(
          fileVariantProblem(r as GameRecord) ?? `${variant.id} has no scenario "${r.scenario}"`,
        );
      try {
        return stateOf(scenario, r as GameRecord);
      } catch (e) {
        throw new GameRulesError(`the record does not read: ${(e as Error).message}`);
      }
    },
  };
}
