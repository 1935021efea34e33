import type { DaideMap } from "../daide/mapdef.ts";
import { powersOf } from "../daide/turn.ts";
import { readPosition } from "../engine/position-json.ts";
import type { GameData } from "../judge/game-data.ts";

/*
 * What a judge game's DAIDE clients are told that is read from its whole stored record
 * (daide-game.ts): each side's year out of the game, for SMR at the end.
 */

/** Each side out of the game (no unit, no centre): the year of the phase it went out in. */
export function eliminations(map: DaideMap, g: GameData): Map<number, number> {
  const out = new Map<number, number>();
  let before = readPosition(
    g.record.start as unknown as Record<string, unknown>,
    g.scenario.variant,
  );
  for (const p of g.record.phases) {
    const after = readPosition(
      p.position as unknown as Record<string, unknown>,
      g.scenario.variant,
    );
    for (const [i, s] of map.sides.entries()) {
      if (s.seat === null || out.has(i)) continue;
      const powers = powersOf(map, g.scenario.variant, g.seats, s);
      const alive = powers.some(
        (x) => [...after.centers.values()].includes(x) || after.units.some((u) => u.power === x),
      );
      if (!alive) out.set(i, before.phase.year);
    }
    before = after;
  }
  return out;
}
