/**
 * An Age of Discovery turn: Global Diplomacy's adjudicator on a generated map, with what
 * appendix C changes around it: spies named by area id or by the player's own square names
 * (XXYY), spies kept within range, what each player knows carried from turn to turn, and the
 * report's map of known areas, in the player's own names (docs/discovery.md).
 */
import { adjudicateTurn } from "../global/adjudicate.ts";
import { GlobalMap } from "../global/map.ts";
import { turnReport } from "../global/report.ts";
import type {
  AreaId,
  CommandResult,
  GameState,
  GlobalRules,
  PowerId,
  TurnResult,
} from "../global/types.ts";
import { DEFAULT_RULES } from "../global/types.ts";
import type { DiscoveryMap } from "./areas.ts";
import { drawMap, type Sight } from "./draw.ts";
import { checkSpies, type Knowledge, nextKnowledge, presentAreas, visibleAreas } from "./fog.ts";
import { playerLetter } from "./mapdata.ts";
import { areaName, resolveTarget } from "./names.ts";

/** A player's command lines with spy targets turned into area ids, and lines refused. */
export interface TranslatedOrders {
  readonly lines: readonly string[];
  /** Rewritten line -> the line as the player wrote it. */
  readonly original: ReadonlyMap<string, string>;
  readonly refused: readonly CommandResult[];
  /** Each spied area -> the target as the player wrote it (an id or XXYY). */
  readonly written: ReadonlyMap<AreaId, string>;
}

/**
 * Rewrites a player's SP lines so that every target is an area id (global's reader knows only
 * those): a four-digit target is a square in the player's names. A line with a target that is
 * neither is refused whole, with the reason, as global refuses an SP naming a bad area.
 */
export function translateSpies(
  map: DiscoveryMap,
  power: PowerId,
  lines: readonly string[],
): TranslatedOrders {
  const out: string[] = [];
  const original = new Map<string, string>();
  const refused: CommandResult[] = [];
  const written = new Map<AreaId, string>();
  for (const raw of lines) {
    const words = raw.trim().split(/\s+/);
    if ((words[0] ?? "").toUpperCase() !== "SP") {
      out.push(raw);
      continue;
    }
    const ids: AreaId[] = [];
    const bad: string[] = [];
    for (const w of words.slice(1)) {
      const r = resolveTarget(map, power, w);
      if (r.ok) {
        ids.push(r.area);
        written.set(r.area, w);
      } else bad.push(r.reason);
    }
    if (bad.length > 0) {
      refused.push({
        power,
        text: raw.trim(),
        status: "rejected",
        reason: `${bad.join("; ")}; the format is SP area-or-XXYY(1) ... (up to 12)`,
      });
      continue;
    }
    const line = `SP ${ids.join(" ")}`;
    original.set(line, raw.trim());
    out.push(line);
  }
  return { lines: out, original, refused, written };
}

/** One Age of Discovery turn: the global result (spies kept in range) and the new knowledge. */
export interface DiscoveryTurn {
  readonly result: TurnResult;
  readonly known: Knowledge;
}

export function adjudicateDiscoveryTurn(
  dmap: DiscoveryMap,
  gmap: GlobalMap,
  state: GameState,
  known: Knowledge,
  orders: Readonly<Record<PowerId, readonly string[]>>,
  rules: GlobalRules = DEFAULT_RULES,
): DiscoveryTurn {
  const translated = new Map<PowerId, TranslatedOrders>();
  const lines: Record<PowerId, readonly string[]> = {};
  for (const [k, l] of Object.entries(orders)) {
    const p = Number(k);
    const t = translateSpies(dmap, p, l);
    translated.set(p, t);
    lines[p] = t.lines;
  }
  const base = adjudicateTurn(gmap, state, lines, rules);
  const spies: Record<PowerId, AreaId[]> = {};
  const results: CommandResult[] = [];
  const checked = new Map<PowerId, ReturnType<typeof checkSpies>>();
  for (const [k, targets] of Object.entries(base.spies)) {
    const p = Number(k);
    const c = checkSpies(
      dmap,
      known[p] ?? [],
      presentAreas(base.after, p),
      targets,
      (a) => translated.get(p)?.written.get(a) ?? String(a),
    );
    checked.set(p, c);
    if (c.sent.length > 0) spies[p] = [...c.sent];
  }
  for (const r of base.results) {
    const text = translated.get(r.power)?.original.get(r.text) ?? r.text;
    const c = checked.get(r.power);
    if (r.command?.op === "SP" && r.status === "ok" && c !== undefined) {
      const mine = new Set(r.command.areas);
      const out = c.refused.filter((x) => mine.has(x.area));
      if (out.length === r.command.areas.length) {
        results.push({
          ...r,
          text,
          status: "rejected",
          reason: out.map((x) => x.reason).join("; "),
        });
        continue;
      }
      if (out.length > 0) {
        results.push({
          ...r,
          text,
          reason: `spies sent to ${r.command.areas.filter((a) => !out.some((x) => x.area === a)).join(" ")}; not: ${out.map((x) => x.reason).join("; ")}`,
        });
        continue;
      }
    }
    results.push(text === r.text ? r : { ...r, text });
  }
  for (const t of translated.values()) results.push(...t.refused);
  const result: TurnResult = { ...base, results, spies };
  return { result, known: nextKnowledge(dmap, known, result.after, spies) };
}

/**
 * The global map as one player may read it: areas it knows or sees this turn are named by
 * its own square names, every other area "????" (news of captures far away gives their ids,
 * never where they are).
 */
export function playerGlobalMap(
  dmap: DiscoveryMap,
  gmap: GlobalMap,
  power: PowerId,
  named: ReadonlySet<AreaId>,
): GlobalMap {
  return new GlobalMap({
    ...gmap.data,
    areas: gmap.data.areas.map((a) => ({
      ...a,
      name: named.has(a.id) ? areaName(dmap, power, a.id) : "????",
    })),
  });
}

/** What `power` sees in each area after a turn (null: known, not seen now). */
export function sightAfter(
  dmap: DiscoveryMap,
  result: TurnResult,
  power: PowerId,
): (area: AreaId) => Sight | null {
  const visible = visibleAreas(dmap, result.after, power, result.spies[power] ?? []);
  const unitAt = new Map(result.after.units.map((u) => [u.area, u]));
  return (area) => {
    if (!visible.has(area)) return null;
    const owner = result.after.owners[area];
    const u = unitAt.get(area);
    return {
      ...(owner !== undefined ? { owner } : {}),
      ...(u ? { unit: { power: u.power, kind: u.kind } } : {}),
    };
  };
}

/**
 * The report of section 8 for one Age of Discovery player: global's report in the player's
 * own area names, then the map of every area it knows (`known`: after the turn).
 */
export function discoveryReport(
  dmap: DiscoveryMap,
  gmap: GlobalMap,
  result: TurnResult,
  known: Knowledge,
  power: PowerId,
  gameId = "discovery",
): string {
  const mine = new Set<AreaId>(known[power] ?? []);
  for (const a of visibleAreas(dmap, result.after, power, result.spies[power] ?? [])) mine.add(a);
  for (const a of presentAreas(result.before, power)) {
    mine.add(a);
    for (const n of gmap.neighbours(a)) mine.add(n);
  }
  const text = turnReport(playerGlobalMap(dmap, gmap, power, mine), result, power, gameId);
  const legend = gmap.powers.map((p) => `${playerLetter(p.id)} ${p.id}-${p.name}`).join(", ");
  return [
    text.trimEnd(),
    "-".repeat(78),
    "MAP OF KNOWN AREAS (your own X Y names; ??? not seen this turn)",
    "  T: L land, C coast, W water; AA: * 1-point, ** 2-point supply centre",
    "  B area owner, C unit owner, D unit (A army, C corps, F fleet, S squadron)",
    `  ${legend}`,
    drawMap(dmap, power, known[power] ?? [], sightAfter(dmap, result, power)).trimEnd(),
    "",
  ].join("\n");
}
