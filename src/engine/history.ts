/*
 * A record as a judge publishes it: each phase with every power's orders and results, the
 * dislodgements and where they may go, civil disorder, events, and the centre table after
 * each fall.
 */

import { describePhase, parsePhase } from "./phase.ts";
import type { GameRecord, PhaseRecord } from "./record.ts";
import type { Variant } from "./variant.ts";

const RESULT_COLUMN = 34;

function pad(s: string, n: number): string {
  return s.length >= n ? `${s} ` : s + " ".repeat(n - s.length);
}

function phaseHistory(variant: Variant, p: PhaseRecord): string[] {
  const parsed = parsePhase(p.phase);
  const lines = [`${parsed ? describePhase(parsed) : p.phase} (${p.phase})`, ""];
  const name = (id: string) => variant.powers.find((x) => x.id === id)?.name ?? id;
  for (const power of variant.powers) {
    const list = p.results[power.id];
    if (!list || list.length === 0) continue;
    lines.push(`${power.name}:`);
    for (const o of list) {
      const shown = o.order ?? o.text ?? "";
      const written = o.text !== null && o.order === null ? ` ("${o.text}")` : "";
      const deemed = o.text === null ? " (no order)" : "";
      const outcome = o.result === "succeeds" ? "" : o.result === "fails" ? "fails" : "INVALID";
      const why = o.reason ? `${outcome ? ": " : ""}${o.reason}` : "";
      lines.push(
        `  ${pad(`${shown}${written}${deemed}`, RESULT_COLUMN)}${outcome}${why}`.trimEnd(),
      );
    }
  }
  if (p.dislodged) {
    lines.push("", "Dislodged:");
    for (const [power, units] of Object.entries(p.dislodged)) {
      for (const d of units) {
        const where =
          d.retreats.length > 0
            ? `may retreat to ${d.retreats.join(", ")}`
            : "cannot retreat: disbanded";
        lines.push(`  ${name(power)} ${d.unit}, by the unit from ${d.from}; ${where}`);
      }
    }
  }
  if (p.civilDisorder) lines.push("", `Civil disorder: ${p.civilDisorder.map(name).join(", ")}`);
  for (const e of p.events ?? []) lines.push("", e.text);
  const next = parsePhase(p.position.phase);
  const centresChanged = parsed && next && parsed.season === "F" && parsed.type !== "A";
  const afterAdjust = parsed?.type === "A";
  if (centresChanged || afterAdjust || p.winner || p.seatWinner) {
    lines.push("", `Supply centres${afterAdjust ? "" : ` after ${p.phase}`}:`);
    for (const power of variant.powers) {
      const cs = p.position.centers?.[power.id] ?? [];
      const units = p.position.units[power.id]?.length ?? 0;
      if (cs.length === 0 && units === 0) continue;
      lines.push(
        `  ${pad(power.name, 10)}${String(cs.length).padStart(2)} centres, ${String(units).padStart(2)} units  ${cs.join(" ")}`,
      );
    }
  }
  if (p.winner)
    lines.push(
      "",
      `${name(p.winner)} has won with ${p.position.centers?.[p.winner]?.length ?? variant.victoryCenters} centres.`,
    );
  if (p.seatWinner) lines.push("", `${p.seatWinner} has won.`);
  lines.push("");
  return lines;
}

export function formatHistory(variant: Variant, record: GameRecord): string {
  const head = [
    `Game of ${variant.name}, scenario ${record.scenario}, rules: ${JSON.stringify(record.rules)}`,
    `Seats: ${record.seats.map((s) => `${s.name}`).join("; ")}`,
    "",
  ];
  return [...head, ...record.phases.flatMap((p) => phaseHistory(variant, p))].join("\n");
}
