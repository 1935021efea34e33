/**
 * The map model: provinces, coasts and adjacency per unit type as a variant author writes them
 * (`MapData`), checked and indexed (`GameMap`, with `MapDataError` naming what is wrong), and
 * a location as a key.
 */

import type {
  Coast,
  Location,
  PowerId,
  Province,
  ProvinceId,
  ProvinceKind,
  UnitType,
} from "./types.ts";

/**
 * A province as a variant author writes it. Adjacency is written per province and per
 * unit type; `GameMap` checks that what one province says the other says too.
 */
export interface ProvinceData {
  readonly id: string;
  readonly name: string;
  readonly aliases?: readonly string[];
  readonly kind: ProvinceKind;
  readonly supplyCenter?: boolean;
  readonly home?: string | null;
  /** Provinces an army here may move to (empty for sea provinces). */
  readonly army: readonly string[];
  /**
   * Locations a fleet here may move to, written `bar` or `stp/nc`. For a province with
   * split coasts use `coasts` instead and leave this empty.
   */
  readonly fleet: readonly string[];
  /** Split coasts: for each coast, the locations a fleet on that coast may move to. */
  readonly coasts?: Readonly<Partial<Record<Coast, readonly string[]>>>;
  /** Impassable land: no neighbours, and no unit may stand there (Switzerland). */
  readonly impassable?: boolean;
}

export interface MapData {
  readonly provinces: readonly ProvinceData[];
}

/** `stp/nc`, or `lon` for a location without a coast. */
export function locationKey(loc: Location): string {
  return loc.coast ? `${loc.province}/${loc.coast}` : loc.province;
}

export function parseLocationKey(key: string): Location {
  const [p, c] = key.split("/");
  return { province: p as ProvinceId, coast: (c ?? null) as Coast | null };
}

/** A map problem found while building a `GameMap` from data. */
export class MapDataError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`invalid map data:\n  ${problems.join("\n  ")}`);
  }
}

/**
 * The map graph, built once per variant: provinces, their coasts, and who may move where.
 * Lookups are by id; every list is precomputed.
 */
export class GameMap {
  readonly provinces: readonly Province[];
  private readonly byId = new Map<string, Province>();
  private readonly armyAdj = new Map<string, ReadonlySet<string>>();
  private readonly fleetAdj = new Map<string, readonly Location[]>();
  private readonly fleetAdjKeys = new Map<string, ReadonlySet<string>>();
  private readonly armyNeighbourList = new Map<string, readonly ProvinceId[]>();

  constructor(data: MapData) {
    const problems: string[] = [];
    const provinces: Province[] = [];
    for (const p of data.provinces) {
      if (this.byId.has(p.id)) problems.push(`province ${p.id} is defined twice`);
      const coasts = Object.keys(p.coasts ?? {}) as Coast[];
      const province: Province = {
        id: p.id as ProvinceId,
        name: p.name,
        aliases: p.aliases ?? [],
        kind: p.kind,
        coasts,
        supplyCenter: p.supplyCenter ?? false,
        home: (p.home ?? null) as PowerId | null,
        impassable: p.impassable === true,
      };
      if (province.impassable && (p.kind !== "land" || p.army.length > 0 || p.fleet.length > 0))
        problems.push(`${p.id}: impassable, so it must be inland with no neighbours`);
      provinces.push(province);
      this.byId.set(p.id, province);
    }
    this.provinces = provinces;

    for (const p of data.provinces) {
      const army = new Set<string>();
      for (const q of p.army) {
        const other = this.byId.get(q);
        if (!other) problems.push(`${p.id}: army neighbour ${q} is not a province`);
        else if (other.kind === "sea") problems.push(`${p.id}: army neighbour ${q} is a sea`);
        army.add(q);
      }
      if (p.kind === "sea" && army.size > 0) problems.push(`${p.id}: a sea has army neighbours`);
      this.armyAdj.set(p.id, army);
      this.armyNeighbourList.set(p.id, [...army] as ProvinceId[]);

      const fleetLists: [string, readonly string[]][] = p.coasts
        ? Object.entries(p.coasts).map(([c, l]) => [`${p.id}/${c}`, l ?? []])
        : [[p.id, p.fleet]];
      if (p.coasts && p.fleet.length > 0) {
        problems.push(`${p.id}: has split coasts, so its fleet moves belong under coasts`);
      }
      if (p.kind === "land" && p.fleet.length > 0)
        problems.push(`${p.id}: inland with fleet moves`);
      for (const [key, list] of fleetLists) {
        const locs: Location[] = [];
        for (const target of list) {
          const loc = parseLocationKey(target);
          const other = this.byId.get(loc.province);
          if (!other) {
            problems.push(`${key}: fleet neighbour ${target} is not a province`);
            continue;
          }
          if (other.kind === "land") problems.push(`${key}: fleet neighbour ${target} is inland`);
          if (other.coasts.length > 0 && !loc.coast) {
            problems.push(`${key}: fleet neighbour ${target} needs a coast`);
          }
          if (loc.coast && !other.coasts.includes(loc.coast)) {
            problems.push(`${key}: ${target} is not a coast of ${other.id}`);
          }
          locs.push(loc);
        }
        this.fleetAdj.set(key, locs);
        this.fleetAdjKeys.set(key, new Set(locs.map(locationKey)));
      }
    }

    // Symmetry: every edge is written from both ends.
    for (const [a, set] of this.armyAdj) {
      for (const b of set) {
        if (!this.armyAdj.get(b)?.has(a)) problems.push(`army edge ${a}-${b} is not symmetric`);
      }
    }
    for (const [a, set] of this.fleetAdjKeys) {
      for (const b of set) {
        if (!this.fleetAdjKeys.get(b)?.has(a))
          problems.push(`fleet edge ${a}-${b} is not symmetric`);
      }
    }
    if (problems.length > 0) throw new MapDataError(problems);
  }

  province(id: string): Province | undefined {
    return this.byId.get(id);
  }

  /** The province, or an exception: for ids the caller has already checked. */
  get(id: ProvinceId): Province {
    const p = this.byId.get(id);
    if (!p) throw new Error(`unknown province ${id}`);
    return p;
  }

  armyAdjacent(from: ProvinceId, to: ProvinceId): boolean {
    return this.armyAdj.get(from)?.has(to) ?? false;
  }

  armyNeighbours(from: ProvinceId): readonly ProvinceId[] {
    return this.armyNeighbourList.get(from) ?? [];
  }

  /** Whether a fleet at `from` may move to exactly `to` (coast included). */
  fleetAdjacent(from: Location, to: Location): boolean {
    return this.fleetAdjKeys.get(locationKey(from))?.has(locationKey(to)) ?? false;
  }

  fleetNeighbours(from: Location): readonly Location[] {
    return this.fleetAdj.get(locationKey(from)) ?? [];
  }

  /** The locations of `to` (one, or one per coast) that a fleet at `from` can reach. */
  fleetTargets(from: Location, to: ProvinceId): readonly Location[] {
    return this.fleetNeighbours(from).filter((l) => l.province === to);
  }

  /** Whether a unit of this type standing at `from` may move into province `to` (any coast). */
  canReach(type: UnitType, from: Location, to: ProvinceId): boolean {
    return type === "A"
      ? this.armyAdjacent(from.province, to)
      : this.fleetTargets(from, to).length > 0;
  }

  /** The places a unit of this type can stand in a province (none if it cannot be there). */
  locationsFor(type: UnitType, province: ProvinceId): readonly Location[] {
    const p = this.byId.get(province);
    if (!p || p.impassable) return [];
    if (type === "A") return p.kind === "sea" ? [] : [{ province: p.id, coast: null }];
    if (p.kind === "land") return [];
    if (p.coasts.length > 0) return p.coasts.map((coast) => ({ province: p.id, coast }));
    return [{ province: p.id, coast: null }];
  }

  get supplyCenters(): readonly Province[] {
    return this.provinces.filter((p) => p.supplyCenter);
  }

  homeCenters(power: PowerId): readonly Province[] {
    return this.provinces.filter((p) => p.supplyCenter && p.home === power);
  }
}
