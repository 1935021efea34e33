/**
 * Age of Discovery in position JSON: a player's command lines read in its own frame (spy
 * targets by area id or its own XXYY: the rules' reader, rules.ts), and one turn adjudicated
 * with every player's fogged report, and the opening report, straight from the JSON (what the
 * judge stores, src/judge/family.ts, is checked against these). Everything is derived from the
 * position's `map` {seed, players}.
 */
import { readCommandSet } from "../global/commands.ts";
import type { GlobalMap } from "../global/map.ts";
import { readGlobalPosition, readGlobalRules, writeTurnResult } from "../global/position.ts";
import { openingTurn } from "../global/rules.ts";
import type { GameState, PowerId } from "../global/types.ts";
import type { DiscoveryMap } from "./areas.ts";
import { adjudicateDiscoveryTurn, discoveryReport } from "./game.ts";
import { mapOfPosition, readKnowledge } from "./index.ts";
import { resolveTarget } from "./names.ts";

type Json = Readonly<Record<string, unknown>>;

/** One line's verdict at submission: accepted, or why not. */
export interface LineVerdict {
  readonly line: number;
  readonly text: string;
  readonly ok: boolean;
  readonly reason?: string;
}

/**
 * A player's command lines read against a game's map and state, in the player's own frame.
 * Lines other than SP are read by global's reader. An SP line is read here, from what the player wrote
 * alone: each target an area id of the map or a square of its grid in the player's names
 * (XXYY), no target written twice, at most the map's twelve spies in all the turn's SP lines.
 * Whether a square and an area id (or two squares) are one area is not told at submission:
 * an unlimited free answer to that would let a player locate any area id on its own map
 * (news name areas by id). The adjudicator turns squares into areas and refuses such a line
 * then (game.ts), and checks the spy range after the turn's moves (appendix C: "areas you
 * ... will end the turn in"): an SP line accepted here may still be refused in the report.
 * Each verdict carries the line as the player wrote it.
 */
export function checkDiscoveryLines(
  dmap: DiscoveryMap,
  gmap: GlobalMap,
  state: GameState,
  power: number,
  lines: readonly string[],
): LineVerdict[] {
  const limit = gmap.data.spies;
  const spyVerdicts = new Map<number, LineVerdict>();
  let spies = 0;
  const others = lines.map((raw, i) => {
    const text = raw.trim();
    const words = text.split(/\s+/);
    if ((words[0] ?? "").toUpperCase() !== "SP") return raw;
    const line = i + 1;
    const targets = words.slice(1);
    const bad = targets.flatMap((w) => {
      const r = resolveTarget(dmap, power, w);
      return r.ok ? [] : [r.reason];
    });
    const written = targets.map((w) => (/^\d{1,3}$/.test(w) ? String(Number(w)) : w));
    const reason =
      targets.length === 0
        ? "name at least one area or square: SP area-or-XXYY(1) ... (up to 12)"
        : bad.length > 0
          ? `${bad.join("; ")}; the format is SP area-or-XXYY(1) ... (up to ${limit})`
          : new Set(written).size !== written.length
            ? "each spy goes to a different area: a target is written twice"
            : spies + targets.length > limit
              ? `only ${limit} spies a turn; ${spies} already sent`
              : null;
    if (reason === null) spies += targets.length;
    spyVerdicts.set(
      line,
      reason === null ? { line, text, ok: true } : { line, text, ok: false, reason },
    );
    return "";
  });
  const read = new Map(
    readCommandSet(others.join("\n"), state, power, gmap).map((l) => [l.line, l]),
  );
  const out: LineVerdict[] = [];
  lines.forEach((raw, i) => {
    const text = raw.trim();
    if (text === "") return;
    const line = i + 1;
    const spy = spyVerdicts.get(line);
    if (spy) {
      out.push(spy);
      return;
    }
    const r = read.get(line);
    if (!r) return;
    out.push(r.ok ? { line, text, ok: true } : { line, text, ok: false, reason: r.reason });
  });
  return out;
}

/** One turn played: the result JSON (its `next` with map and knowledge) and every report. */
export function playDiscoveryJson(
  position: Json,
  rules: unknown,
  orders: Readonly<Record<string, readonly string[]>>,
  gameLabel: string,
): {
  result: Record<string, unknown>;
  next: Record<string, unknown>;
  reports: Record<string, string>;
  winners: string[] | null;
} {
  const { map: dmap, global: gmap } = mapOfPosition(position);
  const before = readGlobalPosition(gmap, { ...position });
  const known = readKnowledge(dmap, gmap, before, position.known);
  const byPower: Record<PowerId, string[]> = {};
  for (const [p, l] of Object.entries(orders)) byPower[Number(p)] = [...l];
  const turn = adjudicateDiscoveryTurn(dmap, gmap, before, known, byPower, readGlobalRules(rules));
  const result = writeTurnResult(turn.result);
  const next = {
    ...(result.next as Record<string, unknown>),
    map: { seed: dmap.seed, players: dmap.players },
    known: turn.known,
  };
  result.next = next;
  result.spies = turn.result.spies;
  const reports: Record<string, string> = {};
  for (const p of gmap.powers)
    reports[String(p.id)] = discoveryReport(dmap, gmap, turn.result, turn.known, p.id, gameLabel);
  const w = turn.result.after.winners;
  return { result, next, reports, winners: w ? w.map(String) : null };
}

/** A player's report before the first turn: the position as a turn with nothing done. */
export function discoveryOpeningReport(position: Json, power: number, gameLabel: string): string {
  const { map: dmap, global: gmap } = mapOfPosition(position);
  const s = readGlobalPosition(gmap, { ...position });
  const known = readKnowledge(dmap, gmap, s, position.known);
  return discoveryReport(dmap, gmap, openingTurn(s), known, power, gameLabel);
}
