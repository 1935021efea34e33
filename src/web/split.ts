import { findPowerByName, type NamedPower } from "../engine/powers.ts";
import type { BoardPosition } from "../render/types.ts";
import type { LineDiag } from "./types.ts";

/*
 * The sandbox's order text split by power headers (any name of a power: its id, name,
 * adjective or the variant's aliases). No DOM here, so node's tests can run it.
 */

/**
 * Whose order a line is, read from the position: the owner of the unit it orders (in a
 * retreat phase the dislodged unit's), or, for a build, of the centre built in; null when the
 * line names no unit the position knows (a waive, a typo: the header decides).
 */
export function unitOwner(position: BoardPosition, line: string): string | null {
  const t = line.trim().toLowerCase();
  const m =
    /^(?:build\s+)?[af]\s+([a-z0-9_]+)/.exec(t) ??
    /^(?:remove|disband)\s+(?:[af]\s+)?([a-z0-9_]+)/.exec(t);
  if (!m) return null;
  const p = m[1]!;
  const at = (u: string) => (u.split(/\s+/)[1] ?? "").split("/")[0] === p;
  if (/^build\b/.test(t)) {
    for (const [power, list] of Object.entries(position.centers ?? {}))
      if (list.includes(p)) return power;
    return null;
  }
  if (/R$/.test(position.phase)) {
    for (const [power, list] of Object.entries(position.dislodged ?? {}))
      if (list.some((d) => at(d.unit))) return power;
  }
  for (const [power, list] of Object.entries(position.units)) if (list.some(at)) return power;
  return null;
}

/**
 * Splits a text with power headers into each power's lines, with a diagnostic per line. With
 * `ownerOf`, a line whose unit's owner it knows is that power's whatever the header above it
 * says (the sandbox orders every power: a header is needed only where the unit cannot tell).
 */
export function splitByPower(
  text: string,
  powers: readonly NamedPower[],
  ownerOf: (line: string) => string | null = () => null,
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
    const owner = ownerOf(t);
    const power = owner !== null && powers.some((p) => p.id === owner) ? owner : current;
    if (!power) {
      lines.push({
        line: i + 1,
        text: t,
        kind: "order",
        power: null,
        ok: false,
        message: `no unit of any power there: name the power first, on a line of its own (e.g. “${powers[0]?.name ?? "England"}:”)`,
      });
      return;
    }
    orders[power] = [...(orders[power] ?? []), t];
    where[power] = [...(where[power] ?? []), i + 1];
    lines.push({ line: i + 1, text: t, kind: "order", power, ok: false });
  });
  return { lines, orders, where };
}
