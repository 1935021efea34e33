import type { Variant } from "../../engine/variant.ts";
import { loadVariant } from "../data.ts";
import data from "./europe1935.json" with { type: "json" };
import { committeeMovement, readCommitteeOrder } from "./insurrection.ts";

/**
 * Europe 1935: the Historical Committee map (nine interwar great powers, 60 centres, Spring
 * 1935), authored as data in europe1935.json. docs/europe1935.md explains the map.
 */
function load(): Variant {
  const r = loadVariant(data);
  if (!r.ok) throw new Error(`europe1935.json is not a valid variant:\n  ${r.errors.join("\n  ")}`);
  const variant: Variant = {
    ...r.variant,
    // The committee's insurrections (docs/committee.md).
    movement: (position, orders, base) => committeeMovement(variant, position, orders, base),
    // Insurrection and revival orders reach the engine through every order reader.
    ownOrder: (text) => {
      const o = readCommitteeOrder(text);
      if (o === null) return null;
      if (o.kind === "revival" && !o.ok)
        return { ok: false, reason: `this revival order ${o.reason}` };
      return { ok: true, order: text.trim().replace(/\s+/g, " ") };
    },
  };
  return variant;
}

export const europe1935: Variant = load();
