import type {
  Adjacency,
  Area,
  AreaId,
  AreaKind,
  MapData,
  PowerDef,
  PowerId,
  StartUnit,
  SupplyValue,
  UnitKind,
} from "./types.ts";
import { isNaval } from "./types.ts";

/**
 * A map ready for the rules: areas by id, adjacency lookups per unit kind, powers by id.
 * Built from MapData (the world map, or a generated Age of Discovery map).
 */
export class GlobalMap {
  readonly data: MapData;
  private readonly byId = new Map<AreaId, Area>();
  private readonly edges = new Map<AreaId, Map<AreaId, Adjacency>>();
  private readonly powerById = new Map<PowerId, PowerDef>();

  constructor(data: MapData) {
    this.data = data;
    for (const a of data.areas) {
      this.byId.set(a.id, a);
      this.edges.set(a.id, new Map(a.adjacency.map((e) => [e.to, e])));
    }
    for (const p of data.powers) this.powerById.set(p.id, p);
  }

  get areas(): readonly Area[] {
    return this.data.areas;
  }
  get powers(): readonly PowerDef[] {
    return this.data.powers;
  }

  area(id: AreaId): Area | undefined {
    return this.byId.get(id);
  }
  power(id: PowerId): PowerDef | undefined {
    return this.powerById.get(id);
  }
  powerName(id: PowerId): string {
    return this.powerById.get(id)?.name ?? `power ${id}`;
  }
  areaName(id: AreaId): string {
    const a = this.byId.get(id);
    // Generated maps (Age of Discovery) have no names: their areas are only numbers.
    return a && a.name !== "" && a.name !== String(id) ? `${id}-${a.name}` : String(id);
  }

  /** Any edge at all (drawn adjacency), whatever may cross it. */
  adjacent(a: AreaId, b: AreaId): boolean {
    return this.edges.get(a)?.has(b) ?? false;
  }

  /** Whether a unit of this kind may cross from a to b. */
  canCross(kind: UnitKind, a: AreaId, b: AreaId): boolean {
    const e = this.edges.get(a)?.get(b);
    if (!e) return false;
    return isNaval(kind) ? e.sea : e.land;
  }

  /** The areas a unit of this kind in `a` may move to. */
  moves(kind: UnitKind, a: AreaId): AreaId[] {
    const out: AreaId[] = [];
    for (const e of this.edges.get(a)?.values() ?? []) {
      if (isNaval(kind) ? e.sea : e.land) out.push(e.to);
    }
    return out;
  }

  neighbours(a: AreaId): AreaId[] {
    return [...(this.edges.get(a)?.keys() ?? [])];
  }

  /** Whether a unit of this kind may stand in an area of this kind (appendix B). */
  static allowed(kind: UnitKind, area: AreaKind): boolean {
    if (area === "coast") return true;
    return isNaval(kind) ? area === "sea" : area === "land";
  }
}

/** Everything wrong with a map's data (empty when it is sound). */
export function validateMap(data: MapData): string[] {
  const errors: string[] = [];
  const byId = new Map<AreaId, Area>();
  for (const a of data.areas) {
    if (byId.has(a.id)) errors.push(`area ${a.id} appears twice`);
    byId.set(a.id, a);
    if (!Number.isInteger(a.id) || a.id <= 0) errors.push(`area id ${a.id} is not positive`);
    if (a.kind === "sea" && a.supply !== 0) errors.push(`sea ${a.id} has a supply centre`);
    if (!Number.isFinite(a.lon) || !Number.isFinite(a.lat)) errors.push(`area ${a.id} anchor`);
  }
  for (const a of data.areas) {
    let seas = 0;
    for (const e of a.adjacency) {
      const b = byId.get(e.to);
      if (!b) {
        errors.push(`area ${a.id}: neighbour ${e.to} does not exist`);
        continue;
      }
      if (e.to === a.id) errors.push(`area ${a.id} is its own neighbour`);
      const back = b.adjacency.find((x) => x.to === a.id);
      if (!back || back.land !== e.land || back.sea !== e.sea)
        errors.push(`edge ${a.id}-${b.id} is not written the same way from ${b.id}`);
      if (b.kind === "sea") seas++;
      if (e.land && (a.kind === "sea" || b.kind === "sea"))
        errors.push(`edge ${a.id}-${b.id}: land units cannot cross to or from a sea`);
      if (e.sea && (a.kind === "land" || b.kind === "land"))
        errors.push(`edge ${a.id}-${b.id}: naval units cannot reach an inland area`);
      if (!e.land && !e.sea) errors.push(`edge ${a.id}-${b.id} lets nothing cross`);
    }
    if (a.kind === "coast" && seas === 0) errors.push(`coast ${a.id} touches no sea`);
    if (a.kind === "land" && seas > 0) errors.push(`inland area ${a.id} touches a sea`);
  }
  const powerIds = new Set<PowerId>();
  const owned = new Map<AreaId, PowerId>();
  const occupied = new Set<AreaId>();
  for (const p of data.powers) {
    if (powerIds.has(p.id)) errors.push(`power ${p.id} appears twice`);
    powerIds.add(p.id);
    if (p.capital !== undefined) {
      const c = byId.get(p.capital);
      if (!c || c.capital !== p.id) errors.push(`${p.name}: capital ${p.capital} not marked`);
      if (!p.areas.includes(p.capital)) errors.push(`${p.name}: does not own its capital`);
    }
    let supply = 0;
    let points = 0;
    for (const id of p.areas) {
      const a = byId.get(id);
      if (!a) errors.push(`${p.name}: area ${id} does not exist`);
      else if (a.kind === "sea") errors.push(`${p.name}: owns sea ${id}`);
      else supply += a.supply;
      if (owned.has(id)) errors.push(`area ${id} owned by two powers`);
      owned.set(id, p.id);
    }
    for (const u of p.units) {
      const a = byId.get(u.area);
      if (!a) {
        errors.push(`${p.name}: unit in unknown area ${u.area}`);
        continue;
      }
      if (!GlobalMap.allowed(u.kind, a.kind))
        errors.push(`${p.name}: a ${u.kind} cannot stand in ${a.kind} area ${u.area}`);
      if (a.kind !== "sea" && !p.areas.includes(u.area))
        errors.push(`${p.name}: unit in ${u.area}, an area it does not own`);
      if (occupied.has(u.area)) errors.push(`two units in area ${u.area}`);
      occupied.add(u.area);
      points += u.kind === "army" || u.kind === "fleet" ? 2 : 1;
    }
    if (points > supply)
      errors.push(`${p.name}: ${points} unit points but only ${supply} supply points`);
  }
  return errors;
}

const KINDS: Readonly<Record<string, AreaKind>> = { L: "land", C: "coast", S: "sea" };
const UNIT_BY_LETTER: Readonly<Record<string, UnitKind>> = {
  A: "army",
  C: "corps",
  F: "fleet",
  S: "squadron",
};

/**
 * Builds MapData from the compact authored form (world-source.ts): area lines, edges written
 * once, powers. Crossings are derived: land units between two non-sea areas; naval units
 * between a sea and its neighbours, and between two coasts that border a common sea.
 */
export function buildMapData(
  id: string,
  name: string,
  regions: readonly (readonly [string, number, number])[],
  areaText: string,
  edgeText: string,
  powerText: string,
): MapData {
  interface Raw {
    id: number;
    kind: AreaKind;
    supply: SupplyValue;
    lon: number;
    lat: number;
    name: string;
  }
  const raws: Raw[] = [];
  for (const line of areaText.split("\n")) {
    const m = /^(\d+) ([LCS]) ([012]) (-?[\d.]+) (-?[\d.]+) (.+)$/.exec(line.trim());
    if (!m) {
      if (line.trim() !== "") throw new Error(`bad area line: ${line}`);
      continue;
    }
    raws.push({
      id: Number(m[1]),
      kind: KINDS[m[2]!]!,
      supply: Number(m[3]) as SupplyValue,
      lon: Number(m[4]),
      lat: Number(m[5]),
      name: m[6]!,
    });
  }
  const nb = new Map<number, Set<number>>(raws.map((r) => [r.id, new Set<number>()]));
  for (const line of edgeText.split("\n")) {
    if (line.trim() === "") continue;
    const [a, rest] = line.split(":");
    const from = Number(a);
    for (const t of (rest ?? "").trim().split(/\s+/)) {
      const to = Number(t);
      if (!nb.has(from) || !nb.has(to)) throw new Error(`edge ${from}-${to}: unknown area`);
      nb.get(from)!.add(to);
      nb.get(to)!.add(from);
    }
  }
  const kind = new Map(raws.map((r) => [r.id, r.kind]));
  const seasOf = (x: number): Set<number> =>
    new Set([...nb.get(x)!].filter((y) => kind.get(y) === "sea"));
  const powers: PowerDef[] = [];
  const capitals = new Map<number, number>();
  for (const line of powerText.split("\n")) {
    if (line.trim() === "") continue;
    const [head, cap, areas, units] = line.split("|").map((s) => s.trim());
    const m = /^(\d+) (.+)$/.exec(head ?? "");
    if (!m) throw new Error(`bad power line: ${line}`);
    const pid = Number(m[1]);
    const startUnits: StartUnit[] = (units ?? "").split(/\s+/).map((u) => ({
      kind: UNIT_BY_LETTER[u[0]!]!,
      area: Number(u.slice(1)),
    }));
    capitals.set(Number(cap), pid);
    powers.push({
      id: pid,
      name: m[2]!,
      capital: Number(cap),
      areas: (areas ?? "").split(/\s+/).map(Number),
      units: startUnits,
    });
  }
  const regionOfLand = (x: number): string =>
    regions.find(([, lo, hi]) => x >= lo && x <= hi)?.[0] ?? "unknown";
  const areas: Area[] = raws.map((r) => {
    const adjacency: Adjacency[] = [...nb.get(r.id)!]
      .sort((x, y) => x - y)
      .map((to) => {
        const k = kind.get(to)!;
        const land = r.kind !== "sea" && k !== "sea";
        let sea = r.kind === "sea" ? k !== "land" : k === "sea" && r.kind === "coast";
        if (r.kind === "coast" && k === "coast") {
          const mine = seasOf(r.id);
          sea = [...seasOf(to)].some((s) => mine.has(s));
        }
        return { to, land, sea };
      });
    let region = regionOfLand(r.id);
    if (r.kind === "sea") {
      const count = new Map<string, number>();
      for (const x of nb.get(r.id)!) {
        if (kind.get(x) === "sea") continue;
        const g = regionOfLand(x);
        count.set(g, (count.get(g) ?? 0) + 1);
      }
      region = [...count.entries()].sort((p, q) => q[1] - p[1])[0]?.[0] ?? "unknown";
    }
    const cap = capitals.get(r.id);
    return {
      id: r.id,
      name: r.name,
      kind: r.kind,
      region,
      supply: r.supply,
      ...(cap !== undefined ? { capital: cap } : {}),
      lon: r.lon,
      lat: r.lat,
      adjacency,
    };
  });
  return {
    id,
    name,
    regions: regions.map((r) => r[0]),
    areas,
    powers,
    spies: 6,
    percentRange: [300, 500],
    turnRange: [10, 40],
  };
}
