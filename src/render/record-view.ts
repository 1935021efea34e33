import type { ResultJson } from "../engine/position-json.ts";
import type { GameRecord } from "../engine/record.ts";
import { drawnResults } from "./layers.ts";
import type { BoardView } from "./types.ts";

/*
 * What the board shows for one phase of a game record (docs/records.md): the position the
 * phase was played from, its orders as the engine understood them, their results, and the
 * units the phase dislodged. The phase after the last one played is the current position,
 * without orders. Pure: the caller reads the record.
 */

/** The phases a record can draw: every phase played, then the current one. */
export function recordPhases(record: GameRecord): string[] {
  const out = record.phases.map((p) => p.phase);
  const last = record.phases.at(-1)?.position ?? record.start;
  out.push(last.phase);
  return out;
}

/** The board of a phase of the record, or an error naming the phases there are. */
export function boardOfRecordPhase(
  record: GameRecord,
  phase: string,
): { ok: true; view: BoardView } | { ok: false; error: string } {
  const want = phase.trim().toUpperCase();
  const index = record.phases.findIndex((p) => p.phase.toUpperCase() === want);
  if (index === -1) {
    const current = record.phases.at(-1)?.position ?? record.start;
    if (current.phase.toUpperCase() === want) return { ok: true, view: { position: current } };
    return {
      ok: false,
      error: `the record has no phase ${phase}; its phases are ${recordPhases(record).join(", ")}`,
    };
  }
  const played = record.phases[index] as GameRecord["phases"][number];
  const position =
    index === 0 ? record.start : (record.phases[index - 1] as typeof played).position;
  return { ok: true, view: boardOfResult(position, played.results, played.dislodged) };
}

/**
 * A position and what its orders did (the adjudicate contract's output, or a record's phase)
 * as a board: the orders as understood, their results and explanations (`drawnResults`), the
 * units dislodged.
 */
export function boardOfResult(
  position: BoardView["position"],
  results: ResultJson["orders"],
  dislodged?: ResultJson["dislodged"],
): BoardView {
  const orders = drawnResults(results);
  const dislodgedHere = Object.values(dislodged ?? {}).flatMap((list) =>
    list.map((d) => d.unit.split(" ")[1] ?? ""),
  );
  return { position, orders, dislodgedHere };
}
