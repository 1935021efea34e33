import { rngFor } from "../../engine/random.ts";
import { readCommandSet } from "./commands.ts";
import { GlobalMap } from "./map.ts";
import {
  hasAccess,
  pairKey,
  ranking,
  relationOf,
  supplyPoints,
  victoryConditions,
} from "./state.ts";
import type {
  AccessGrant,
  AreaId,
  CallToArms,
  Command,
  CommandResult,
  GameState,
  GlobalRules,
  Op,
  Penalty,
  PowerId,
  Relation,
  TurnResult,
  Unit,
  UnitKind,
  UnitOutcome,
  Vote,
} from "./types.ts";
import { DEFAULT_RULES, isNaval, UNIT_POINTS } from "./types.ts";

/** A unit during adjudication: `id` is its start area (or build area), its identity. */
interface WUnit {
  readonly id: number;
  readonly power: PowerId;
  kind: UnitKind;
  area: AreaId;
  readonly isNew: boolean;
  alive: boolean;
  mark?: UnitOutcome["mark"];
}

interface Entry {
  readonly power: PowerId;
  readonly text: string;
  readonly command: Command;
  readonly index: number;
  status?: CommandResult["status"];
  reason?: string;
}

interface Move {
  readonly entry: Entry;
  readonly unit: WUnit;
  readonly from: AreaId;
  readonly to: AreaId;
  /** Convoy route (sea areas), for a convoyed land unit. */
  readonly seas?: readonly AreaId[];
  readonly supports: Entry[];
  failed?: string;
  /** Index in `seas` of the sea area where the convoy was disrupted. */
  disruptedAt?: number;
}

interface Support {
  readonly entry: Entry;
  readonly unit: WUnit;
  readonly to: AreaId;
}

const ok = (e: Entry): void => {
  e.status = "ok";
};
const reject = (e: Entry, why: string): void => {
  e.status = "rejected";
  e.reason = why;
};
const fail = (e: Entry, why: string): void => {
  e.status = "failed";
  e.reason = why;
};

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
  const map = mapIn;
  const turn = state.turn;
  const powers = map.powers.map((p) => p.id);
  const entries: Entry[] = [];
  const results: CommandResult[] = [];
  const lineResults: { power: PowerId; text: string; entry?: Entry; reason?: string }[] = [];
  for (const p of powers) {
    const lines = orders[p] ?? [];
    for (const l of readCommandSet(lines.join("\n"), state, p, map)) {
      if (l.ok) {
        const entry: Entry = { power: p, text: l.text, command: l.command, index: entries.length };
        entries.push(entry);
        lineResults.push({ power: p, text: l.text, entry });
      } else lineResults.push({ power: p, text: l.text, reason: l.reason });
    }
  }
  const byOp = (op: Op): Entry[] => entries.filter((e) => e.command.op === op);

  // Working state.
  const owners = new Map<AreaId, PowerId>(
    Object.entries(state.owners).map(([a, p]) => [Number(a), p]),
  );
  const startOwners = new Map(owners);
  const units: WUnit[] = state.units.map((u) => ({
    id: u.area,
    power: u.power,
    kind: u.kind,
    area: u.area,
    isNew: false,
    alive: true,
  }));
  const startUnits = new Map(units.map((u) => [u.id, u]));
  const unitIn = (a: AreaId): WUnit | undefined => units.find((u) => u.alive && u.area === a);
  const rel: Record<string, Relation> = { ...state.relations };
  const relNow = (a: PowerId, b: PowerId): Relation => relationOf(rel, a, b);
  const relStart = (a: PowerId, b: PowerId): Relation => relationOf(state.relations, a, b);
  const changed = new Set<string>();
  const news: string[] = [];
  const pname = (p: PowerId): string => `${p}-${map.powerName(p)}`;
  const supplyStart = new Map(powers.map((p) => [p, supplyPoints(map, state, p)]));
  const pointsNow = (p: PowerId): number =>
    units.filter((u) => u.alive && u.power === p).reduce((s, u) => s + UNIT_POINTS[u.kind], 0);
  const surplus = new Map(powers.map((p) => [p, supplyStart.get(p)! - pointsNow(p)]));
  let access: AccessGrant[] = [...state.access];

  const entryAllowed = (p: PowerId, area: AreaId): string | null => {
    const a = map.area(area);
    if (!a || a.kind === "sea") return null;
    const o = owners.get(area);
    if (o === undefined || o === p) return null;
    const r = relNow(p, o);
    if (r === "war") return null;
    if (r === "alliance") {
      return hasAccess(access, o, p, area)
        ? null
        : `${map.areaName(area)} belongs to your ally ${pname(o)}, who has not granted you access (GA)`;
    }
    return `${map.areaName(area)} belongs to ${pname(o)}, with whom you are neutral: declare war (DW ${o}) or ally and be granted access`;
  };

  // 7.1-7.4 builds.
  const builds: [Op, UnitKind, 1 | 2][] = [
    ["AA", "army", 2],
    ["AC", "corps", 1],
    ["AF", "fleet", 2],
    ["AS", "squadron", 1],
  ];
  for (const [op, kind, cost] of builds) {
    for (const e of byOp(op)) {
      if (!("area" in e.command)) continue;
      const area = map.area(e.command.area)!;
      const name = map.areaName(area.id);
      if (startOwners.get(area.id) !== e.power) reject(e, `${name} is not yours`);
      else if (area.supply === 0) reject(e, `${name} is not a supply centre`);
      else if (cost === 2 && area.supply !== 2)
        reject(
          e,
          `${kind === "army" ? "armies" : "fleets"} are only added at 2-point supply centres; ${name} is a 1-point centre`,
        );
      else if (isNaval(kind) && area.kind !== "coast")
        reject(e, `naval units are only added at coastal supply centres; ${name} is inland`);
      else if (unitIn(area.id)) reject(e, `${name} is not empty`);
      else if ((surplus.get(e.power) ?? 0) < cost)
        reject(
          e,
          `a ${kind} needs ${cost} surplus supply point${cost === 2 ? "s" : ""}; you have ${Math.max(0, surplus.get(e.power) ?? 0)}`,
        );
      else {
        surplus.set(e.power, surplus.get(e.power)! - cost);
        const u: WUnit = {
          id: -area.id,
          power: e.power,
          kind,
          area: area.id,
          isNew: true,
          alive: true,
          mark: "built",
        };
        units.push(u);
        ok(e);
      }
    }
  }

  // 7.5 calls to arms.
  const calls: CallToArms[] = [...state.calls];
  for (const e of byOp("CA")) {
    if (e.command.op !== "CA") continue;
    const { ally, enemy } = e.command;
    if (relNow(e.power, ally) !== "alliance") reject(e, `you are not allied with ${pname(ally)}`);
    else if (relNow(e.power, enemy) !== "war") reject(e, `you are not at war with ${pname(enemy)}`);
    else {
      calls.push({ caller: e.power, ally, enemy, turn });
      news.push(`${pname(e.power)} calls ${pname(ally)} to arms against ${pname(enemy)}`);
      ok(e);
    }
  }

  // 7.6 convoys: validated now, moved with the other moves at MO.
  const convoyingFleets = new Map<AreaId, Entry>();
  const convoys: { entry: Entry; unit: WUnit; seas: AreaId[]; to: AreaId }[] = [];
  for (const e of byOp("CO")) {
    if (e.command.op !== "CO") continue;
    const { from, seas, to } = e.command;
    const u = unitIn(from);
    const why = ((): string | null => {
      if (!u || u.power !== e.power) return `there is no unit of yours in ${map.areaName(from)}`;
      if (u.isNew) return "a unit built this turn cannot move";
      if (isNaval(u.kind)) return "only land units are convoyed";
      if (map.area(from)!.kind !== "coast") return `${map.areaName(from)} is not coastal`;
      if (map.area(to)!.kind !== "coast") return `${map.areaName(to)} is not coastal`;
      if (to === from) return "a convoy must end somewhere else than it starts";
      if (new Set(seas).size !== seas.length) return "a convoy crosses each sea area once";
      const path = [from, ...seas, to];
      for (let i = 0; i < seas.length; i++) {
        const s = seas[i]!;
        if (map.area(s)!.kind !== "sea")
          return `${map.areaName(s)} is not a sea area (you cannot convoy along a coast)`;
        const f = unitIn(s);
        if (!f || f.power !== e.power || !isNaval(f.kind))
          return `you have no naval unit in ${map.areaName(s)}`;
        if (f.isNew) return `the ${f.kind} in ${s} was built this turn`;
        if (UNIT_POINTS[f.kind] < UNIT_POINTS[u.kind])
          return `the squadron in ${s} cannot carry an army (a convoying unit must be at least as big)`;
        const other = convoyingFleets.get(s);
        if (other) return `the ${f.kind} in ${s} is already convoying (${other.text})`;
      }
      for (let i = 0; i + 1 < path.length; i++) {
        if (!map.adjacent(path[i]!, path[i + 1]!))
          return `${path[i]} and ${path[i + 1]} are not adjacent`;
      }
      return null;
    })();
    if (why) {
      reject(e, why);
      continue;
    }
    for (const s of seas) convoyingFleets.set(s, e);
    convoys.push({ entry: e, unit: u!, seas: [...seas], to });
  }

  // 7.7-7.9 relations, each judged against the relation at the start of the turn; a pair
  // changes at most once a turn.
  const declared = (op: "DA" | "DN" | "DW", p: PowerId, q: PowerId): boolean =>
    byOp(op).some((e) => e.power === p && e.command.op === op && e.command.powers.includes(q));
  const setRel = (a: PowerId, b: PowerId, r: Relation): void => {
    const k = pairKey(a, b);
    if (r === "neutral") delete rel[k];
    else rel[k] = r;
    changed.add(k);
  };
  const relCommand = (
    op: "DA" | "DN" | "DW",
    decide: (p: PowerId, q: PowerId) => string | null,
  ): void => {
    for (const e of byOp(op)) {
      if (e.command.op !== op) continue;
      const problems: string[] = [];
      for (const q of e.command.powers) {
        const why = decide(e.power, q);
        if (why) problems.push(`${pname(q)}: ${why}`);
      }
      if (problems.length === 0) ok(e);
      else if (problems.length === e.command.powers.length) fail(e, problems.join("; "));
      else {
        e.status = "ok";
        e.reason = `partly: ${problems.join("; ")}`;
      }
    }
  };
  relCommand("DA", (p, q) => {
    if (relStart(p, q) !== "neutral") return `you are not neutral (${relStart(p, q)})`;
    if (changed.has(pairKey(p, q)))
      return relNow(p, q) === "alliance" ? null : "relations already changed this turn";
    if (!declared("DA", q, p)) return "they did not declare an alliance with you this turn";
    setRel(p, q, "alliance");
    news.push(`${pname(p)} and ${pname(q)} are now allies`);
    return null;
  });
  relCommand("DN", (p, q) => {
    const r = relStart(p, q);
    if (r === "neutral") return "you are already neutral";
    if (changed.has(pairKey(p, q)))
      return relNow(p, q) === "neutral" ? null : "relations already changed this turn";
    if (r === "war" && !declared("DN", q, p)) {
      news.push(`${pname(p)} wants to end the war with ${pname(q)}`);
      return "ending a war needs both sides to declare neutral the same turn";
    }
    setRel(p, q, "neutral");
    news.push(
      r === "war"
        ? `${pname(p)} and ${pname(q)} have ended their war`
        : `${pname(p)} has broken the alliance with ${pname(q)}`,
    );
    return null;
  });
  relCommand("DW", (p, q) => {
    if (turn === 1) return "no war may be declared on the first turn";
    const r = relStart(p, q);
    // 7.9: war is declared on powers "which you are currently neutral with".
    if (r === "war") return "you are already at war";
    if (changed.has(pairKey(p, q)) && relNow(p, q) === "war") return null;
    if (r === "alliance")
      return "you are allied: break the alliance first (DN); war needs a turn of neutrality";
    if (changed.has(pairKey(p, q))) return "relations already changed this turn";
    setRel(p, q, "war");
    news.push(`${pname(p)} has declared war on ${pname(q)}`);
    // 5.1 tip: areas of one occupied by the other's unit pass to the unit's owner.
    for (const u of units) {
      if (!u.alive) continue;
      const o = owners.get(u.area);
      if ((o === p && u.power === q) || (o === q && u.power === p)) owners.set(u.area, u.power);
    }
    return null;
  });

  // 7.10 downgrades.
  const deficit = (p: PowerId): number => pointsNow(p) - supplyStart.get(p)!;
  for (const e of byOp("DU")) {
    if (e.command.op !== "DU") continue;
    const u = startUnits.get(e.command.area);
    if (!u?.alive || u.power !== e.power)
      reject(e, `there is no unit of yours in ${e.command.area}`);
    else if (u.kind === "corps" || u.kind === "squadron")
      reject(e, `the ${u.kind} in ${e.command.area} is already a 1-point unit`);
    else if (deficit(e.power) <= 0)
      reject(e, "you may not downgrade a unit unless your supply points require it");
    else {
      u.kind = u.kind === "army" ? "corps" : "squadron";
      u.mark = "downgraded";
      ok(e);
    }
  }

  // 7.11 access grants (fail if the alliance was broken this turn).
  access = access.filter((g) => relNow(g.grantor, g.grantee) === "alliance");
  for (const e of byOp("GA")) {
    if (e.command.op !== "GA") continue;
    const { power: q, areas } = e.command;
    if (relNow(e.power, q) !== "alliance") {
      fail(
        e,
        relStart(e.power, q) === "alliance"
          ? `the alliance with ${pname(q)} was broken this turn, so the grant fails`
          : `you are not allied with ${pname(q)}`,
      );
      continue;
    }
    if (areas !== "all") {
      const notMine = areas.filter((a) => owners.get(a) !== e.power);
      if (notMine.length > 0) {
        reject(e, `you do not own ${notMine.join(", ")}`);
        continue;
      }
    }
    access.push({ grantor: e.power, grantee: q, areas });
    ok(e);
  }

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
  const battles = resolveConflicts();

  // 7.14 removals (only while still required, after the turn's losses).
  for (const e of byOp("RU")) {
    if (e.command.op !== "RU") continue;
    const u = startUnits.get(e.command.area);
    if (!u || u.power !== e.power) reject(e, `there is no unit of yours in ${e.command.area}`);
    else if (!u.alive) fail(e, `the unit from ${e.command.area} was already lost this turn`);
    else if (deficit(e.power) <= 0)
      reject(e, "you may not remove a unit unless your supply points require it");
    else {
      u.alive = false;
      u.mark = "dead";
      ok(e);
    }
  }

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

  // 7.18 upgrades.
  for (const e of byOp("UU")) {
    if (e.command.op !== "UU") continue;
    const u = startUnits.get(e.command.area);
    const area = map.area(e.command.area)!;
    if (!u || u.power !== e.power) reject(e, `there is no unit of yours in ${e.command.area}`);
    else if (!u.alive) fail(e, `the unit from ${e.command.area} was lost this turn`);
    else if (area.supply === 0) reject(e, `${map.areaName(area.id)} is not a supply centre`);
    else if (startOwners.get(area.id) !== e.power)
      reject(e, `${map.areaName(area.id)} is not yours`);
    else if ((surplus.get(e.power) ?? 0) < 1)
      reject(e, "an upgrade needs a surplus supply point; you have none left");
    else {
      surplus.set(e.power, surplus.get(e.power)! - 1);
      u.kind = isNaval(u.kind) ? "fleet" : "army";
      u.mark = "upgraded";
      ok(e);
    }
  }

  // 7.19 victory-condition votes.
  const votes: Record<PowerId, Vote> = { ...state.votes };
  for (const e of byOp("VC")) {
    if (e.command.op !== "VC") continue;
    votes[e.power] = { turns: e.command.turns, percent: e.command.percent };
    ok(e);
  }

  // The moderator: deficits not met are met by random removals (FRU) or downgrades (FDU).
  const rng = rngFor(state.seed, turn);
  for (const p of powers) {
    while (deficit(p) > 0) {
      const mine = units.filter((u) => u.alive && u.power === p).sort((a, b) => a.area - b.area);
      const u = rng.pick(mine);
      if (deficit(p) === 1 && (u.kind === "army" || u.kind === "fleet")) {
        u.kind = u.kind === "army" ? "corps" : "squadron";
        u.mark = "FDU";
      } else {
        u.alive = false;
        u.mark = "FRU";
      }
    }
  }

  // Calls to arms (4.0, 7.5): from the turn after the call the ally must act at once.
  const penalties: Penalty[] = state.penalties
    .map((x) => ({ power: x.power, percent: x.percent - 5 }))
    .filter((x) => x.percent > 0);
  const openCalls: CallToArms[] = [];
  for (const c of calls) {
    if (relNow(c.ally, c.enemy) === "war") continue; // answered
    if (relNow(c.caller, c.enemy) !== "war") continue; // lapsed: the caller's war is over
    if (relNow(c.caller, c.ally) !== "alliance") {
      // The caller broke the alliance, or it broke on the call's own turn: the call lapses.
      // The ally breaking it with the caller once called is a refusal (4.0: "If they refuse,
      // your alliance with them is broken and they will suffer a 20% loss").
      const refused =
        c.turn < turn && declared("DN", c.ally, c.caller) && !declared("DN", c.caller, c.ally);
      if (refused) {
        penalties.push({ power: c.ally, percent: 20 });
        news.push(
          `${pname(c.ally)} refused the call to arms of ${pname(c.caller)} and broke the alliance`,
        );
      }
      continue;
    }
    if (c.turn >= turn) {
      openCalls.push(c);
      continue;
    }
    const before = relStart(c.ally, c.enemy);
    const answered = before === "alliance" && relNow(c.ally, c.enemy) === "neutral";
    if (answered) openCalls.push(c);
    else {
      setRel(c.caller, c.ally, "neutral");
      penalties.push({ power: c.ally, percent: 20 });
      news.push(
        `${pname(c.ally)} failed to answer the call to arms of ${pname(c.caller)}: the alliance is broken`,
      );
    }
  }

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

  /** Moves, supports and convoys; returns the areas where battles took place. */
  function resolveConflicts(): AreaId[] {
    const moves: Move[] = [];
    const busy = new Set<WUnit>();
    const unitOrder = (e: Entry, area: AreaId, what: string): WUnit | null => {
      const u = unitIn(area);
      const start = startUnits.get(area);
      if (!u || u.power !== e.power) {
        reject(e, `there is no unit of yours in ${map.areaName(area)}`);
        return null;
      }
      if (u.isNew || start !== u) {
        reject(e, `a unit built this turn cannot ${what}`);
        return null;
      }
      if (convoyingFleets.has(area)) {
        reject(
          e,
          `the ${u.kind} in ${area} is convoying (${convoyingFleets.get(area)!.text}) and can do nothing else`,
        );
        return null;
      }
      if (busy.has(u)) {
        reject(e, `the unit in ${area} already has a command`);
        return null;
      }
      return u;
    };
    for (const e of byOp("MO")) {
      if (e.command.op !== "MO") continue;
      const u = unitOrder(e, e.command.from, "move");
      if (!u) continue;
      const why = entryAllowed(e.power, e.command.to);
      if (why) {
        reject(e, why);
        continue;
      }
      busy.add(u);
      moves.push({ entry: e, unit: u, from: e.command.from, to: e.command.to, supports: [] });
    }
    for (const c of convoys) {
      if (!c.unit.alive || c.unit.area !== c.unit.id) {
        reject(c.entry, "the land unit is no longer there");
        continue;
      }
      const why = entryAllowed(c.entry.power, c.to);
      if (why) {
        reject(c.entry, why);
        continue;
      }
      busy.add(c.unit);
      moves.push({
        entry: c.entry,
        unit: c.unit,
        from: c.unit.area,
        to: c.to,
        seas: c.seas,
        supports: [],
      });
    }
    const attacks: Support[] = [];
    for (const e of byOp("SA")) {
      if (e.command.op !== "SA") continue;
      const u = unitOrder(e, e.command.from, "support");
      if (!u) continue;
      const q = e.command.power ?? e.power;
      if (q !== e.power && relNow(e.power, q) !== "alliance") {
        reject(e, `you must be allied with ${pname(q)} to support its attack`);
        continue;
      }
      const why = entryAllowed(e.power, e.command.to);
      if (why) {
        reject(e, `you could not move there yourself: ${why}`);
        continue;
      }
      const to = e.command.to;
      const targets = moves.filter((m) => m.unit.power === q && m.to === to);
      busy.add(u);
      if (targets.length === 0) {
        fail(e, `no unit of ${pname(q)} moves into ${map.areaName(e.command.to)}`);
        continue;
      }
      for (const m of targets) m.supports.push(e);
      attacks.push({ entry: e, unit: u, to: e.command.to });
    }
    const moving = new Set(moves.map((m) => m.unit));
    const defences = new Map<WUnit, Support[]>();
    const allSupports: Support[] = [...attacks];
    for (const e of byOp("SD")) {
      if (e.command.op !== "SD") continue;
      const u = unitOrder(e, e.command.from, "support");
      if (!u) continue;
      const to = e.command.to;
      const t = unitIn(to);
      if (!t) {
        reject(
          e,
          `there is no unit in ${map.areaName(to)} to support; an empty area cannot be defended`,
        );
        continue;
      }
      if (t.power !== e.power && relNow(e.power, t.power) !== "alliance") {
        reject(e, `you may not support a unit of ${pname(t.power)}: you are not allied`);
        continue;
      }
      const o = owners.get(to);
      if (map.area(to)!.kind !== "sea" && o !== undefined && o !== e.power && o !== t.power) {
        const why = entryAllowed(e.power, to);
        if (why) {
          reject(e, `the unit stands in an area of ${pname(o)}: ${why}`);
          continue;
        }
      }
      busy.add(u);
      if (moving.has(t)) {
        fail(
          e,
          `the unit in ${map.areaName(to)} is moving; only stationary units can be supported in defence`,
        );
        continue;
      }
      const s = { entry: e, unit: u, to };
      const list = defences.get(t) ?? [];
      list.push(s);
      defences.set(t, list);
      allSupports.push(s);
    }

    // Cut supports and disrupted convoys, to a fixed point (a support or convoy caught in
    // an oscillation counts as cut / disrupted).
    let cut = new Set<Entry>();
    const pts = (u: WUnit): number => UNIT_POINTS[u.kind];
    const attackOf = (m: Move, c: Set<Entry>): number =>
      pts(m.unit) +
      m.supports.reduce((s, e) => s + (c.has(e) ? 0 : pts(startUnits.get(commandFrom(e))!)), 0);
    const defenceOf = (u: WUnit, c: Set<Entry>): number =>
      pts(u) + (defences.get(u) ?? []).reduce((s, x) => s + (c.has(x.entry) ? 0 : pts(x.unit)), 0);
    let disrupted = new Map<Move, number>();
    const active = (d: Map<Move, number>): Move[] => moves.filter((m) => !d.has(m));
    const step = (c: Set<Entry>, d: Map<Move, number>): [Set<Entry>, Map<Move, number>] => {
      const act = active(d);
      const nc = new Set<Entry>();
      for (const s of allSupports) {
        if (
          act.some(
            (m) =>
              m.to === s.unit.area &&
              m.unit.power !== s.unit.power &&
              attackOf(m, c) >= pts(s.unit),
          )
        )
          nc.add(s.entry);
      }
      const nd = new Map<Move, number>();
      for (const m of moves) {
        if (!m.seas) continue;
        const i = m.seas.findIndex((sea) => {
          const fleet = unitIn(sea)!;
          return act.some(
            (x) =>
              x !== m &&
              x.to === sea &&
              x.unit.power !== m.unit.power &&
              (rules.convoyDisruption === "7.6" || attackOf(x, c) >= pts(fleet)),
          );
        });
        if (i >= 0) nd.set(m, i);
      }
      return [nc, nd];
    };
    const same = (
      a: Set<Entry>,
      b: Set<Entry>,
      x: Map<Move, number>,
      y: Map<Move, number>,
    ): boolean =>
      a.size === b.size &&
      [...a].every((e) => b.has(e)) &&
      x.size === y.size &&
      [...x].every(([m, i]) => y.get(m) === i);
    for (let round = 0; ; round++) {
      const [nc, nd] = step(cut, disrupted);
      if (same(nc, cut, nd, disrupted)) break;
      if (round > 30) {
        for (const e of nc) cut.add(e);
        for (const [m, i] of nd) if (!disrupted.has(m)) disrupted.set(m, i);
        break;
      }
      cut = nc;
      disrupted = nd;
    }
    for (const s of allSupports) {
      if (cut.has(s.entry))
        fail(
          s.entry,
          `support cut: the unit in ${s.unit.area} was attacked by an equal or stronger force`,
        );
    }
    for (const [m, i] of disrupted) {
      m.disruptedAt = i;
      m.failed = `the convoy was disrupted at ${map.areaName(m.seas![i]!)}`;
    }

    // Head-to-head: a moving force meets first the unit coming the other way.
    const live = (): Move[] => moves.filter((m) => !m.failed);
    for (const m of live()) {
      if (m.seas || m.failed) continue;
      const other = live().find((x) => !x.seas && x.from === m.to && x.to === m.from);
      if (!other) continue;
      const a = attackOf(m, cut);
      const b = attackOf(other, cut);
      if (m.unit.power === other.unit.power) {
        m.failed = other.failed = "your own units cannot exchange areas";
      } else if (a > b) other.failed = `beaten head-on by the unit from ${m.from} (${a} to ${b})`;
      else if (b > a) m.failed = `beaten head-on by the unit from ${other.from} (${b} to ${a})`;
      else m.failed = other.failed = `tie head-on (${a} to ${b})`;
    }
    // Then every other force contesting its target, and the unit standing there.
    const battles = new Set<AreaId>();
    const dislodged = new Set<WUnit>();
    const targets = [...new Set(live().map((m) => m.to))];
    for (const area of targets) {
      let ms = live().filter((m) => m.to === area);
      const occ = units.find((u) => u.alive && u.area === area && !moving.has(u));
      if (occ) {
        const land = map.area(area)!.kind !== "sea";
        for (const m of ms) {
          if (occ.power === m.unit.power)
            m.failed = "your own unit stays in the area; your units do not fight each other";
          else if (
            land &&
            relNow(m.unit.power, occ.power) !== "war" &&
            owners.get(area) !== m.unit.power
          )
            m.failed = `the area is held by a unit of ${pname(occ.power)}, with whom you are not at war`;
        }
        ms = ms.filter((m) => !m.failed);
      }
      // Only moves that are conflicts make a battle (a move refused without a fight does not).
      const powersInvolved = new Set(ms.map((m) => m.unit.power));
      if (occ && ms.length > 0) powersInvolved.add(occ.power);
      if (powersInvolved.size > 1 && map.area(area)!.kind !== "sea") battles.add(area);
      if (ms.length === 0) continue;
      const scored = ms.map((m) => ({ m, s: attackOf(m, cut) })).sort((x, y) => y.s - x.s);
      const best = scored[0]!;
      const unique = scored.length === 1 || scored[1]!.s < best.s;
      const def = occ ? defenceOf(occ, cut) : -1;
      if (unique && best.s > def) {
        for (const x of scored.slice(1))
          x.m.failed = `beaten at ${area} by the unit from ${best.m.from} (${best.s} to ${x.s})`;
        if (occ) dislodged.add(occ);
      } else {
        for (const x of scored)
          x.m.failed =
            occ && def >= best.s
              ? `the defence of ${area} held (${def} to ${x.s})`
              : `tie at ${area} (${best.s} to ${best.s})`;
      }
    }

    // Apply: winners move; the others retreat.
    const retreating: { u: WUnit; tiers: AreaId[][]; origin?: AreaId }[] = [];
    for (const m of moves) {
      if (!m.failed) {
        m.unit.area = m.to;
        // Land is taken when unowned or the owner's enemy's; an ally passing with access
        // does not take it (5.1 tip).
        const o = owners.get(m.to);
        if (
          map.area(m.to)!.kind !== "sea" &&
          (o === undefined || relNow(m.unit.power, o) === "war")
        )
          owners.set(m.to, m.unit.power);
        ok(m.entry);
      }
    }
    const pending = new Set<WUnit>();
    const occupied = (a: AreaId): boolean =>
      units.some((u) => u.alive && u.area === a && !pending.has(u));
    for (const m of moves) if (m.failed) pending.add(m.unit);
    for (const u of dislodged) pending.add(u);
    const friendly = (u: WUnit, a: AreaId): boolean => {
      const area = map.area(a)!;
      if (!GlobalMap.allowed(u.kind, area.kind)) return false;
      if (area.kind === "sea") return true;
      if (battles.has(a)) return false;
      const o = owners.get(a);
      if (o === u.power) return true;
      return (
        o !== undefined && relNow(u.power, o) === "alliance" && hasAccess(access, o, u.power, a)
      );
    };
    for (const m of moves) {
      if (!m.failed) continue;
      fail(m.entry, m.failed);
      const u = m.unit;
      const around = (sea: AreaId): AreaId[] =>
        map.neighbours(sea).filter((a) => a !== m.from && friendly(u, a));
      // 5.2: "A unit can not retreat to a land or coastal area where a battle has taken
      // place, even if the area is now empty" -- its own origin included (two other powers
      // fought over the area it left).
      const home: AreaId[] = battles.has(m.from) ? [] : [m.from];
      let tiers: AreaId[][];
      if (m.seas && m.disruptedAt !== undefined && rules.convoyDisruption === "5.5") {
        tiers = [];
        for (let j = m.disruptedAt - 1; j >= 0; j--) tiers.push(around(m.seas[j]!));
        tiers.push(home);
      } else if (m.seas) {
        const last = m.disruptedAt === undefined ? m.seas.length - 1 : m.disruptedAt - 1;
        tiers = [home, last >= 0 ? around(m.seas[last]!) : []];
      } else {
        tiers = [
          home,
          map
            .moves(u.kind, m.from)
            .filter((a) => a !== m.to && map.adjacent(a, m.to) && friendly(u, a)),
        ];
      }
      retreating.push({ u, tiers, origin: m.from });
    }
    for (const u of dislodged) {
      retreating.push({ u, tiers: [map.moves(u.kind, u.area).filter((a) => friendly(u, a))] });
    }
    // Origins first (the area a unit moved from is its own), then the rest; two units of
    // different powers whose only retreat is the same area both die (5.2).
    const taken = new Set<AreaId>();
    const place = (r: { u: WUnit; origin?: AreaId }, a: AreaId | null): void => {
      pending.delete(r.u);
      if (a === null) {
        r.u.alive = false;
        r.u.mark = "dead";
        return;
      }
      if (r.origin !== a) r.u.mark = "retreat";
      r.u.area = a;
      taken.add(a);
    };
    let rest = retreating.filter((r) => {
      if (r.origin !== undefined && r.tiers[0]![0] === r.origin && !occupied(r.origin)) {
        place(r, r.origin);
        return false;
      }
      return true;
    });
    const options = (r: (typeof retreating)[number]): AreaId[] => {
      for (const t of r.tiers) {
        const free = t.filter((a) => !taken.has(a) && !occupied(a));
        if (free.length > 0) return free.sort((x, y) => x - y);
      }
      return [];
    };
    while (rest.length > 0) {
      let progressed = false;
      for (const r of rest.filter((x) => options(x).length === 0)) {
        place(r, null);
        progressed = true;
      }
      rest = rest.filter((r) => pending.has(r.u));
      const sole = new Map<AreaId, typeof rest>();
      for (const r of rest) {
        const o = options(r);
        if (o.length === 1) sole.set(o[0]!, [...(sole.get(o[0]!) ?? []), r]);
      }
      for (const [a, rs] of sole) {
        if (rs.length === 1) {
          place(rs[0]!, a);
          progressed = true;
        } else if (new Set(rs.map((r) => r.u.power)).size > 1) {
          for (const r of rs) place(r, null);
          progressed = true;
        } else {
          const [first, ...others] = [...rs].sort(
            (x, y) => pts(y.u) - pts(x.u) || x.u.area - y.u.area,
          );
          place(first!, a);
          for (const r of others) r.tiers = r.tiers.map((t) => t.filter((x) => x !== a));
          progressed = true;
        }
        break;
      }
      rest = rest.filter((r) => pending.has(r.u));
      if (!progressed && rest.length > 0) {
        const r = [...rest].sort((x, y) => x.u.area - y.u.area)[0]!;
        place(r, options(r)[0]!);
      }
      rest = rest.filter((r) => pending.has(r.u));
    }
    return [...battles].sort((a, b) => a - b);
  }
}

function commandFrom(e: Entry): AreaId {
  const c = e.command;
  return "from" in c ? c.from : -1;
}
