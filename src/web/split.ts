import { findPowerByName, type NamedPower } from "../engine/powers.ts";
import type { LineDiag } from "./types.ts";

/*
 * The sandbox's order text split by power headers (any name of a power: its id, name,
 * adjective or the variant's aliases). No DOM here, so node's tests can run it.
 */

/** Splits a text with power headers into each power's lines, with a diagnostic per line. */
export function splitByPower(
  text: string,
  powers: readonly NamedPower[],
): { lines: LineDiag[]; orders: Record<string, string[]>; where: Record<string, number[]> } {
  const lines: LineDiag[] = [];
  const orders: Record<string, string[]> = {};
  const where: Record<string, number[]> = {};
  let current: string | null = null;
  text.split(/\r?\n/).forEach((raw, i) => {
    const t = raw.trim();
    if (t === "") return;
    const id = findPowerByName(powers, t);
    const header = powers.find((p) => p.id === id);
    if (header) {
      current = header.id;
      lines.push({ line: i + 1, text: t, kind: "power", power: header.id, ok: true });
      return;
    }
    if (!current) {
      lines.push({
        line: i + 1,
        text: t,
        kind: "order",
        power: null,
        ok: false,
        message: `name the power first, on a line of its own (e.g. “${powers[0]?.name ?? "England"}:”)`,
      });
      return;
    }
    orders[current] = [...(orders[current] ?? []), t];
    where[current] = [...(where[current] ?? []), i + 1];
    lines.push({ line: i + 1, text: t, kind: "order", power: current, ok: false });
  });
  return { lines, orders, where };
}
