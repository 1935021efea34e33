/*
 * One turn of Global Diplomacy (seed 004, section 7): `adjudicateTurn` runs the steps in the
 * seed's sequence over the turn's working state (turn-state.ts): the unit commands
 * (unit-commands.ts), the diplomacy (relations.ts), the conflicts (conflicts.ts); messages,
 * spies and votes here; then the next state, the end of the game (section 6) and the
 * material for the reports.
 */
import { resolveConflicts } from "./conflicts.ts";
import type { GlobalMap } from "./map.ts";
import { accessGrants, callsAnswered, callsToArms, relations } from "./relations.ts";
import { ranking, victoryConditions } from "./state.ts";
import { ok, reject, startTurn } from "./turn-state.ts";
import type {
  AreaId,
  CommandResult,
  GameState,
  GlobalRules,
  PowerId,
  Relation,
  TurnResult,
  Unit,
  UnitOutcome,
  Vote,
} from "./types.ts";
import { DEFAULT_RULES } from "./types.ts";
import {
  builds,
  convoyOrders,
  downgrades,
  moderatorDeficits,
  removals,
  upgrades,
} from "./unit-commands.ts";

/**
 * A map family's own checks inside the turn (Age of Discovery: spies only within two areas
 * of what the power knows or will end the turn in). `spy` sees the state before the turn
 * and the units and owners after the moves; it returns a reason to refuse, or null.
 */
export interface TurnHooks {
  readonly spy?: (
    power: PowerId,
    areas: readonly AreaId[],
    now: { before: GameState; units: readonly Unit[]; owners: ReadonlyMap<AreaId, PowerId> },
  ) => string | null;
}

/**
 * One turn of Global Diplomacy: every power's command lines, executed in the seed's
 * sequence (section 7), give the next state and the material for the reports. Pure: the
 * moderator's forced removals draw from a generator seeded by the state's seed and turn.
 */
export function adjudicateTurn(
  mapIn: GlobalMap,
  state: GameState,
  orders: Readonly<Record<PowerId, readonly string[]>>,
  rules: GlobalRules = DEFAULT_RULES,
  hooks: TurnHooks = {},
): TurnResult {
  const t = startTurn(mapIn, state, orders);
  const { map, turn, powers, units, owners, rel, news, pname, lineResults, byOp } = t;
  const results: CommandResult[] = [];

  builds(t); // 7.1-7.4
  const calls = callsToArms(t); // 7.5
  convoyOrders(t); // 7.6
  relations(t); // 7.7-7.9
  downgrades(t); // 7.10
  accessGrants(t); // 7.11

  // 7.12 messages.
  const messages: Record<PowerId, string[]> = {};
  for (const e of byOp("ME")) {
    if (e.command.op !== "ME") continue;
    const to = e.command.to;
    for (const p of powers) {
      if (p === e.power || (to !== "all" && to !== p)) continue;
      messages[p] = [...(messages[p] ?? []), e.command.text];
    }
    ok(e);
  }

  // 7.13 moves, 7.15 support attack, 7.16 support defence, and 7.6 convoys: resolved together.
  const battles = resolveConflicts(t, rules);

  removals(t); // 7.14

  // 7.17 spies.
  const spies: Record<PowerId, AreaId[]> = {};
  for (const e of byOp("SP")) {
    if (e.command.op !== "SP") continue;
    const why = hooks.spy?.(e.power, e.command.areas, {
      before: state,
      units: units
        .filter((u) => u.alive)
        .map((u) => ({ area: u.area, power: u.power, kind: u.kind })),
      owners: new Map(owners),
    });
    if (why) {
      reject(e, why);
      continue;
    }
    spies[e.power] = [...(spies[e.power] ?? []), ...e.command.areas];
    ok(e);
  }

  upgrades(t); // 7.18

  // 7.19 victory-condition votes.
  const votes: Record<PowerId, Vote> = { ...state.votes };
  for (const e of byOp("VC")) {
    if (e.command.op !== "VC") continue;
    votes[e.power] = { turns: e.command.turns, percent: e.command.percent };
    ok(e);
  }

  moderatorDeficits(t);
  const { penalties, openCalls } = callsAnswered(t, calls);

  const finalUnits: Unit[] = units
    .filter((u) => u.alive)
    .map((u) => ({ area: u.area, power: u.power, kind: u.kind }))
    .sort((a, b) => a.area - b.area);
  const ownersOut: Record<AreaId, PowerId> = {};
  for (const [a, p] of [...owners.entries()].sort((x, y) => x[0] - y[0])) ownersOut[a] = p;
  const relOut: Record<string, Relation> = {};
  for (const k of Object.keys(rel).sort()) relOut[k] = rel[k]!;
  let after: GameState = {
    variant: state.variant,
    turn: turn + 1,
    owners: ownersOut,
    units: finalUnits,
    relations: relOut,
    access: [],
    calls: openCalls,
    penalties,
    votes,
    initialVP: state.initialVP,
    seed: state.seed,
  };
  // Section 6: the game ends after the voted number of turns or when a power reaches the
  // voted percentage; the highest ranked win (ties possible).
  const vc = victoryConditions(map, after);
  const ranks = ranking(map, after);
  const reached = ranks.some((r) => r.percent >= vc.percent);
  if (state.winners) after = { ...after, winners: state.winners };
  else if (turn >= vc.turns || reached) {
    const top = ranks[0]!.percent;
    after = { ...after, winners: ranks.filter((r) => r.percent === top).map((r) => r.power) };
    news.push(
      `The game is over: ${after.winners!.map(pname).join(", ")} ${after.winners!.length > 1 ? "share the victory" : "wins"}`,
    );
  }

  for (const l of lineResults) {
    if (l.entry) {
      const e = l.entry;
      results.push({
        power: l.power,
        text: l.text,
        command: e.command,
        status: e.status ?? "ok",
        ...(e.reason ? { reason: e.reason } : {}),
      });
    } else results.push({ power: l.power, text: l.text, status: "rejected", reason: l.reason! });
  }
  const outcomes: UnitOutcome[] = units.map((u) => ({
    power: u.power,
    kind: u.kind,
    from: Math.abs(u.id),
    to: u.alive ? u.area : null,
    ...(u.mark ? { mark: u.mark } : {}),
  }));
  return {
    turn,
    before: state,
    after,
    results,
    outcomes,
    battles,
    spies,
    messages,
    news,
  };
}
