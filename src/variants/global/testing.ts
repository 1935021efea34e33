import { adjudicateTurn } from "./adjudicate.ts";
import { readGlobalPosition } from "./position.ts";
import { initialState } from "./state.ts";
import type {
  AreaId,
  CommandResult,
  GlobalRules,
  PowerId,
  TurnResult,
  UnitOutcome,
} from "./types.ts";
import { DEFAULT_RULES } from "./types.ts";
import { worldMap } from "./world.ts";

/** A test position: the map's start owners with `owners` over them (null: unowned). */
export interface Spec {
  turn?: number;
  seed?: number;
  owners?: Record<number, number | null>;
  units: Record<number, string[]>;
  relations?: Record<string, string>;
  access?: { grantor: number; grantee: number; areas: number[] | "all" }[];
  calls?: { caller: number; ally: number; enemy: number; turn: number }[];
  penalties?: { power: number; percent: number }[];
  votes?: Record<number, { turns: number; percent: number }>;
  initialVP?: Record<number, number>;
}

export function stateOf(spec: Spec) {
  const owners: Record<string, number> = {};
  for (const [a, p] of Object.entries(initialState(worldMap).owners)) owners[a] = p;
  for (const [a, p] of Object.entries(spec.owners ?? {})) {
    if (p === null) delete owners[a];
    else owners[a] = p;
  }
  return readGlobalPosition(worldMap, { ...spec, turn: spec.turn ?? 2, owners });
}

export interface Played extends TurnResult {
  res(power: PowerId, text: string): CommandResult;
  unit(from: AreaId): UnitOutcome;
  at(area: AreaId): { power: PowerId; kind: string } | undefined;
}

export function play(
  spec: Spec,
  orders: Record<number, string[]>,
  rules: GlobalRules = DEFAULT_RULES,
): Played {
  const r = adjudicateTurn(worldMap, stateOf(spec), orders, rules);
  return {
    ...r,
    res(power, text) {
      const x = r.results.find((c) => c.power === power && c.text === text);
      if (!x) throw new Error(`no result for ${power}: ${text}`);
      return x;
    },
    unit(from) {
      const x = r.outcomes.find((o) => o.from === from);
      if (!x) throw new Error(`no unit from ${from}`);
      return x;
    },
    at(area) {
      const u = r.after.units.find((x) => x.area === area);
      return u ? { power: u.power, kind: u.kind } : undefined;
    },
  };
}
