/*
 * A Global Diplomacy turn as it is worked out (adjudicate.ts): the command lines read, each
 * command's entry and verdict, the units and owners as they change, the relations now and
 * at the start, the supply points, the access grants, the convoys ordered, and the news.
 * Every step of section 7 reads and changes this one state (`Turn`); `startTurn` makes it.
 */
import { readCommandSet } from "./commands.ts";
import type { GlobalMap } from "./map.ts";
import { hasAccess, pairKey, relationOf, supplyPoints } from "./state.ts";
import type {
  AccessGrant,
  AreaId,
  Command,
  CommandResult,
  GameState,
  Op,
  PowerId,
  Relation,
  UnitKind,
  UnitOutcome,
} from "./types.ts";
import { UNIT_POINTS } from "./types.ts";

/** A unit during adjudication: `id` is its start area (or build area), its identity. */
export interface WUnit {
  readonly id: number;
  readonly power: PowerId;
  kind: UnitKind;
  area: AreaId;
  readonly isNew: boolean;
  alive: boolean;
  mark?: UnitOutcome["mark"];
}

/** A command read, with its verdict as the turn decides it. */
export interface Entry {
  readonly power: PowerId;
  readonly text: string;
  readonly command: Command;
  readonly index: number;
  status?: CommandResult["status"];
  reason?: string;
}

/** A move (or a convoyed move) as the conflicts resolve it (conflicts.ts, retreats.ts). */
export interface Move {
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

export const ok = (e: Entry): void => {
  e.status = "ok";
};
export const reject = (e: Entry, why: string): void => {
  e.status = "rejected";
  e.reason = why;
};
export const fail = (e: Entry, why: string): void => {
  e.status = "failed";
  e.reason = why;
};

/** A convoy ordered (7.6): validated when ordered, moved with the other moves at MO. */
export interface Convoy {
  readonly entry: Entry;
  readonly unit: WUnit;
  readonly seas: AreaId[];
  readonly to: AreaId;
}

/** The turn being worked out: what every step reads and changes. */
export interface Turn {
  readonly map: GlobalMap;
  /** The state at the start of the turn. */
  readonly state: GameState;
  readonly turn: number;
  readonly powers: readonly PowerId[];
  readonly entries: readonly Entry[];
  /** Every command line in order: its entry when it was read, else why not. */
  readonly lineResults: readonly { power: PowerId; text: string; entry?: Entry; reason?: string }[];
  readonly byOp: (op: Op) => Entry[];
  readonly owners: Map<AreaId, PowerId>;
  readonly startOwners: ReadonlyMap<AreaId, PowerId>;
  /** Every unit of the turn, built ones included (dead ones stay, `alive` false). */
  readonly units: WUnit[];
  /** The units of the start by their start area. */
  readonly startUnits: ReadonlyMap<number, WUnit>;
  readonly unitIn: (a: AreaId) => WUnit | undefined;
  readonly rel: Record<string, Relation>;
  readonly relNow: (a: PowerId, b: PowerId) => Relation;
  readonly relStart: (a: PowerId, b: PowerId) => Relation;
  /** The pairs whose relation changed this turn (a pair changes at most once). */
  readonly changed: Set<string>;
  readonly news: string[];
  /** A power as the reports name it: `3-France`. */
  readonly pname: (p: PowerId) => string;
  readonly supplyStart: ReadonlyMap<PowerId, number>;
  readonly pointsNow: (p: PowerId) => number;
  readonly surplus: Map<PowerId, number>;
  /** The access grants in force (those of broken alliances dropped at 7.11). */
  access: AccessGrant[];
  /** Why power `p` may not enter `area` (neutral or allied without access), or null. */
  readonly entryAllowed: (p: PowerId, area: AreaId) => string | null;
  /** Unit points over supply points (above 0: the power must lose units). */
  readonly deficit: (p: PowerId) => number;
  /** Whether `p` declared `op` (DA, DN, DW) towards `q` this turn. */
  readonly declared: (op: "DA" | "DN" | "DW", p: PowerId, q: PowerId) => boolean;
  readonly setRel: (a: PowerId, b: PowerId, r: Relation) => void;
  /** 7.6: the sea areas whose fleets convoy, with the convoy's entry; the convoys. */
  readonly convoyingFleets: Map<AreaId, Entry>;
  readonly convoys: Convoy[];
}

/** The turn's working state at its start: every power's command lines read. */
export function startTurn(
  map: GlobalMap,
  state: GameState,
  orders: Readonly<Record<PowerId, readonly string[]>>,
): Turn {
  const turn = state.turn;
  const powers = map.powers.map((p) => p.id);
  const entries: Entry[] = [];
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
  const pname = (p: PowerId): string => `${p}-${map.powerName(p)}`;
  const supplyStart = new Map(powers.map((p) => [p, supplyPoints(map, state, p)]));
  const pointsNow = (p: PowerId): number =>
    units.filter((u) => u.alive && u.power === p).reduce((s, u) => s + UNIT_POINTS[u.kind], 0);
  const surplus = new Map(powers.map((p) => [p, supplyStart.get(p)! - pointsNow(p)]));

  const t: Turn = {
    map,
    state,
    turn,
    powers,
    entries,
    lineResults,
    byOp,
    owners,
    startOwners,
    units,
    startUnits,
    unitIn,
    rel,
    relNow,
    relStart,
    changed,
    news: [],
    pname,
    supplyStart,
    pointsNow,
    surplus,
    access: [...state.access],
    entryAllowed: (p, area) => {
      const a = map.area(area);
      if (!a || a.kind === "sea") return null;
      const o = owners.get(area);
      if (o === undefined || o === p) return null;
      const r = relNow(p, o);
      if (r === "war") return null;
      if (r === "alliance") {
        return hasAccess(t.access, o, p, area)
          ? null
          : `${map.areaName(area)} belongs to your ally ${pname(o)}, who has not granted you access (GA)`;
      }
      return `${map.areaName(area)} belongs to ${pname(o)}, with whom you are neutral: declare war (DW ${o}) or ally and be granted access`;
    },
    deficit: (p) => pointsNow(p) - supplyStart.get(p)!,
    declared: (op, p, q) =>
      byOp(op).some((e) => e.power === p && e.command.op === op && e.command.powers.includes(q)),
    setRel: (a, b, r) => {
      const k = pairKey(a, b);
      if (r === "neutral") delete rel[k];
      else rel[k] = r;
      changed.add(k);
    },
    convoyingFleets: new Map<AreaId, Entry>(),
    convoys: [],
  };
  return t;
}
