/*
 * The variant data format (docs/variant.schema.json): the JSON document that describes a
 * whole variant (powers, provinces with their adjacency, the start), its fields (allowed and
 * required, as the schema lists them), and a Variant written back in it (`variantToData`).
 * data.ts reads and checks a document of this format.
 */
import type { ProvinceData } from "../engine/map.ts";
import { phaseName } from "../engine/phase.ts";
import type { Location } from "../engine/types.ts";
import type { Variant } from "../engine/variant.ts";

/** A power as the variant file writes it. */
export interface PowerData {
  readonly id: string;
  readonly name: string;
  readonly adjective: string;
  readonly letter: string;
  /** Other names people write for the power (`UK`, `Great Britain`, `England`). */
  readonly aliases?: readonly string[];
}

/** A province as the variant file writes it: `ProvinceData`, and whether nothing may enter. */
export interface VariantProvinceData extends ProvinceData {
  /** Impassable land (Switzerland): no neighbours, no units, no centre. */
  readonly impassable?: boolean;
}

/** The whole variant file. */
export interface VariantData {
  /** The schema the file follows, for editors; ignored by the loader. */
  readonly $schema?: string;
  readonly id: string;
  readonly name: string;
  /** Free text for people: where the map comes from, what it assumes. */
  readonly description?: string;
  /**
   * Centres a power needs for a solo victory, or null: no number of centres wins or ends the
   * game (the variant has its own way of winning, as europe1935's victory points).
   */
  readonly victoryCenters: number | null;
  /** The first phase, e.g. `S1901M`: season, year, phase type (movement or adjustment). */
  readonly startPhase: string;
  readonly powers: readonly PowerData[];
  readonly provinces: readonly VariantProvinceData[];
  /** Per power id, its units at the start: `A par`, `F stp/sc`. */
  readonly startUnits: Readonly<Record<string, readonly string[]>>;
  /**
   * The variant's rule defaults (docs/rules.md options): applied over the chosen profile,
   * overridden by options a game or an adjudication gives explicitly.
   */
  readonly rules?: Readonly<Record<string, string | boolean>>;
}

export type LoadResult =
  | { readonly ok: true; readonly variant: Variant }
  | { readonly ok: false; readonly errors: readonly string[] };

/** The fields each object of the format may have; the schema lists the same ones. */
export const VARIANT_FIELDS: readonly string[] = [
  "$schema",
  "id",
  "name",
  "description",
  "victoryCenters",
  "startPhase",
  "powers",
  "provinces",
  "startUnits",
  "rules",
];
export const POWER_FIELDS: readonly string[] = ["id", "name", "adjective", "letter", "aliases"];
export const REQUIRED_POWER = ["id", "name", "adjective", "letter"];
export const PROVINCE_FIELDS: readonly string[] = [
  "id",
  "name",
  "aliases",
  "kind",
  "supplyCenter",
  "home",
  "army",
  "fleet",
  "coasts",
  "impassable",
];

export const REQUIRED_VARIANT = [
  "id",
  "name",
  "victoryCenters",
  "startPhase",
  "powers",
  "provinces",
];
export const REQUIRED_PROVINCE = ["id", "name", "kind", "army", "fleet"];

const locText = (l: Location): string => (l.coast ? `${l.province}/${l.coast}` : l.province);

/**
 * A variant written back in the data format (for `variant show`-style exports and round-trip
 * tests). Land with no neighbours is written impassable.
 */
export function variantToData(v: Variant): VariantData {
  const provinces: VariantProvinceData[] = v.map.provinces.map((p) => {
    const at = { province: p.id, coast: null };
    const army = v.map.armyNeighbours(p.id).map(String);
    const coasts =
      p.coasts.length > 0
        ? Object.fromEntries(
            p.coasts.map((c) => [
              c,
              v.map.fleetNeighbours({ province: p.id, coast: c }).map(locText),
            ]),
          )
        : undefined;
    const fleet = coasts ? [] : v.map.fleetNeighbours(at).map(locText);
    return {
      id: p.id,
      name: p.name,
      ...(p.aliases.length > 0 ? { aliases: [...p.aliases] } : {}),
      kind: p.kind,
      ...(p.supplyCenter ? { supplyCenter: true } : {}),
      ...(p.home !== null ? { home: p.home } : {}),
      army,
      fleet,
      ...(coasts ? { coasts } : {}),
      ...(p.impassable ? { impassable: true } : {}),
    };
  });
  const startUnits: Record<string, string[]> = {};
  for (const p of v.powers) {
    const list = v.start.units
      .filter((u) => u.power === p.id)
      .map((u) => `${u.type} ${locText(u)}`);
    if (list.length > 0) startUnits[p.id] = list;
  }
  return {
    id: v.id,
    name: v.name,
    victoryCenters: v.victoryCenters,
    startPhase: phaseName(v.start.phase),
    powers: v.powers.map((p) => ({
      id: p.id,
      name: p.name,
      adjective: p.adjective,
      letter: p.letter,
      ...(p.aliases && p.aliases.length > 0 ? { aliases: [...p.aliases] } : {}),
    })),
    provinces,
    startUnits,
    ...(v.rules ? { rules: { ...(v.rules as Record<string, string | boolean>) } } : {}),
  };
}
