import { readFileSync } from "node:fs";
import { describePhase, phaseName } from "../engine/phase.ts";
import type { Location } from "../engine/types.ts";
import { loadVariant } from "../variants/data.ts";
import { summarize } from "../variants/variant-summary.ts";

/*
 * `entente variant check FILE`: a variant data file read and checked, its problems listed
 * with their paths, or its summary.
 */
const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;
const loc = (l: Location): string => (l.coast ? `${l.province}/${l.coast}` : l.province);

/**
 * `entente variant check FILE`: reads a variant file (docs/variant.schema.json) and reports
 * either every problem, each with its path, or a summary of the variant; with `json`, as one
 * JSON line (`{file, ok, problems}` or `{file, ok, variant, ...counts}`).
 */
export function checkVariantFile(path: string, json = false): { ok: boolean; report: string } {
  const problems = (list: readonly string[]) => ({
    ok: false,
    report: `${JSON.stringify({ file: path, ok: false, problems: list })}\n`,
  });
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    const why = `cannot read the file (${(e as Error).message})`;
    return json ? problems([why]) : { ok: false, report: `${path}: ${why}\n` };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    const why = `not valid JSON (${(e as Error).message})`;
    return json ? problems([why]) : { ok: false, report: `${path}: ${why}\n` };
  }
  const r = loadVariant(data);
  if (!r.ok && json) return problems(r.errors);
  if (!r.ok) {
    const lines = [
      `${path}: ${plural(r.errors.length, "problem")}`,
      ...r.errors.map((e) => `  ${e}`),
    ];
    return { ok: false, report: `${lines.join("\n")}\n` };
  }
  const v = r.variant;
  const s = summarize(v);
  if (json)
    return {
      ok: true,
      report: `${JSON.stringify({ file: path, ok: true, variant: v.id, name: v.name, startPhase: phaseName(v.start.phase), victoryCenters: v.victoryCenters, powers: v.powers.map((p) => p.id), ...s })}\n`,
    };
  const lines = [
    `${path}: variant "${v.id}" (${v.name}) is valid`,
    `  start: ${describePhase(v.start.phase)} (${phaseName(v.start.phase)}); ${v.victoryCenters === null ? `no solo victory: no number of the ${s.centres} supply centres wins` : `solo victory at ${v.victoryCenters} of ${s.centres} supply centres`}`,
    `  provinces: ${s.provinces}: ${s.land} inland, ${s.coast} coastal, ${s.sea} sea` +
      (s.impassable.length > 0 ? `; impassable: ${s.impassable.join(", ")}` : ""),
    `  split coasts: ${
      s.splitCoasts.length > 0
        ? s.splitCoasts.map((id) => `${id} (${v.map.get(id).coasts.join(", ")})`).join(", ")
        : "none"
    }`,
    `  adjacency: ${plural(s.armyEdges, "army edge")}, ${plural(s.fleetEdges, "fleet edge")}`,
    `  supply centres: ${s.centres}: ${s.homeCentres} home, ${s.neutralCentres.length} neutral` +
      (s.neutralCentres.length > 0 ? ` (${[...s.neutralCentres].sort().join(", ")})` : ""),
    `  powers: ${v.powers.length}`,
  ];
  for (const p of v.powers) {
    const homes = v.map
      .homeCenters(p.id)
      .map((c) => c.id)
      .sort();
    const units = v.start.units.filter((u) => u.power === p.id).map((u) => `${u.type} ${loc(u)}`);
    lines.push(
      `    ${p.letter} ${p.name} (${p.id}, ${p.adjective}): home ${homes.join(", ")}; start ${
        units.length > 0 ? units.join(", ") : "no units"
      }`,
    );
  }
  return { ok: true, report: `${lines.join("\n")}\n` };
}
