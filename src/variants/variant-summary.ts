/*
 * A variant's counts for reports (`entente variant check`): provinces by kind, centres, the
 * pairs of places armies and fleets move between.
 */
import type { Location, ProvinceId } from "../engine/types.ts";
import type { Variant } from "../engine/variant.ts";

const locText = (l: Location): string => (l.coast ? `${l.province}/${l.coast}` : l.province);

/** Counts for reports: provinces by kind, centres, undirected edges. */
export interface VariantSummary {
  readonly provinces: number;
  readonly land: number;
  readonly coast: number;
  readonly sea: number;
  readonly impassable: readonly ProvinceId[];
  readonly splitCoasts: readonly ProvinceId[];
  readonly centres: number;
  readonly homeCentres: number;
  readonly neutralCentres: readonly ProvinceId[];
  /** Pairs of provinces an army can move between. */
  readonly armyEdges: number;
  /** Pairs of locations (coasts counted apart) a fleet can move between. */
  readonly fleetEdges: number;
}

export function summarize(v: Variant): VariantSummary {
  const ps = v.map.provinces;
  let army = 0;
  let fleet = 0;
  for (const p of ps) {
    for (const n of v.map.armyNeighbours(p.id)) if (p.id < n) army++;
    const locs: Location[] =
      p.coasts.length > 0
        ? p.coasts.map((c) => ({ province: p.id, coast: c }))
        : [{ province: p.id, coast: null }];
    for (const l of locs) {
      for (const n of v.map.fleetNeighbours(l)) if (locText(l) < locText(n)) fleet++;
    }
  }
  const centres = v.map.supplyCenters;
  return {
    provinces: ps.length,
    land: ps.filter((p) => p.kind === "land").length,
    coast: ps.filter((p) => p.kind === "coast").length,
    sea: ps.filter((p) => p.kind === "sea").length,
    impassable: ps.filter((p) => p.impassable).map((p) => p.id),
    splitCoasts: ps.filter((p) => p.coasts.length > 0).map((p) => p.id),
    centres: centres.length,
    homeCentres: centres.filter((p) => p.home !== null).length,
    neutralCentres: centres.filter((p) => p.home === null).map((p) => p.id),
    armyEdges: army,
    fleetEdges: fleet,
  };
}
