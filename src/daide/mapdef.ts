/*
 * A game's map in DAIDE's terms: its powers and provinces as tokens, the map definition (MDF)
 * and, for any map but the standard one, the representation message (RM) that names them.
 *
 * A DAIDE power is a side of the game: a seat of the scenario (which may play several of the
 * variant's powers, as in the rulebook's games for two to four players), or a power nobody
 * plays (Italy in the six-player game, in civil disorder throughout). The classical game with
 * one power per seat is the standard map, announced by name ('standard') with the standard
 * tokens; any other map or scenario gets its own name, an RM and its own MDF, all from the
 * variant's data.
 *
 * Province tokens follow the standard map's rule, which gives exactly its values: the category
 * says inland, sea, coastal or bicoastal and whether a supply centre; the numbers run from 0
 * through the groups in the order inland, inland centre, sea, sea centre, coastal, coastal
 * centre, bicoastal, bicoastal centre, alphabetically by name within each group.
 */
import type { Scenario, Seat } from "../engine/scenario.ts";
import type { Coast, PowerId, Province, ProvinceId } from "../engine/types.ts";
import { classical } from "../variants/classical/index.ts";
import type { Item, Names } from "./language.ts";
import { CATEGORY, fixedNames, provinceCategory, type Token, tok } from "./tokens.ts";

/** One DAIDE power: a seat of the scenario, or a power nobody plays. */
export interface Side {
  readonly token: Token;
  readonly name: string;
  /** The seat's index in the scenario's seats, or null for a power nobody plays. */
  readonly seat: number | null;
  /** The variant's powers this side plays at the start. */
  readonly powers: readonly PowerId[];
}

export interface DaideMap {
  /** The name MAP announces ('standard' for the classical game). */
  readonly name: string;
  /** The standard map: no RM is sent. */
  readonly standard: boolean;
  readonly names: Names;
  readonly sides: readonly Side[];
  provinceToken(id: ProvinceId): Token;
  provinceOf(token: Token): Province | undefined;
  /** The side that plays `power` under these seats (seats change in the two-player game). */
  sideOf(power: PowerId, seats: readonly Seat[]): Side;
  sideByToken(token: Token): Side | undefined;
  /** The representation message's entries: every power and province token with its name. */
  representation(): readonly { readonly token: Token; readonly name: string }[];
  /** MDF's arguments: powers, provinces (centres by home and the rest), adjacencies. */
  mdf(): Item[];
}

const COAST_TOKENS: Readonly<Record<Coast, string>> = {
  nc: "NCS",
  sc: "SCS",
  ec: "ECS",
  wc: "WCS",
};

export const coastToken = (c: Coast): Token => tok(COAST_TOKENS[c]);

export function coastOf(token: Token): Coast | null | undefined {
  for (const [c, name] of Object.entries(COAST_TOKENS)) if (tok(name) === token) return c as Coast;
  return undefined;
}

/** The standard map's names where they differ from the classical variant's ids. */
const STANDARD_NAMES: Readonly<Record<string, string>> = { bot: "GOB", eng: "ECH", lyo: "GOL" };

/** Three capital letters, not a fixed token's name and not taken: from the candidates, in order. */
function pickName(candidates: readonly string[], taken: Set<string>): string {
  const fixed = fixedNames();
  for (const c of candidates) {
    const name = c.toUpperCase().replace(/[^A-Z0-9]/g, "");
    if (name.length === 3 && !taken.has(name) && !fixed.has(name)) {
      taken.add(name);
      return name;
    }
  }
  for (let i = 0; ; i++) {
    const name = `${(candidates[0] ?? "X").toUpperCase().replace(/[^A-Z]/g, "X")[0] ?? "X"}${String(i).padStart(2, "0")}`;
    if (!taken.has(name) && !fixed.has(name)) {
      taken.add(name);
      return name;
    }
  }
}

/** Three-letter candidates from a word: its first three letters, then first letter + two others. */
function candidatesOf(...words: string[]): string[] {
  const out: string[] = [];
  for (const w of words) {
    const letters = w.toUpperCase().replace(/[^A-Z]/g, "");
    if (letters.length >= 3) out.push(letters.slice(0, 3));
    for (let i = 1; i < letters.length; i++)
      for (let j = i + 1; j < letters.length; j++) out.push(letters[0]! + letters[i] + letters[j]);
  }
  return out;
}

export function daideMap(scenario: Scenario): DaideMap {
  const { variant } = scenario;
  const map = variant.map;
  const isClassicalMap = map === classical.map;
  const played = new Set(scenario.seats.flatMap((s) => s.powers));
  const powerById = new Map(variant.powers.map((p) => [p.id, p]));

  // Sides, in the variant's order of powers: a seat where its first power comes, a power
  // nobody plays where it comes.
  const takenPowerNames = new Set<string>();
  const sides: Side[] = [];
  for (const p of variant.powers) {
    const seat = scenario.seats.findIndex((s) => s.powers[0] === p.id);
    if (seat >= 0) {
      const powers = scenario.seats[seat]!.powers;
      const cands =
        powers.length === 1
          ? candidatesOf(p.name, p.id)
          : [
              powers
                .map((q) => powerById.get(q)!.letter)
                .join("")
                .concat(p.name.slice(1))
                .slice(0, 3),
              ...candidatesOf(scenario.seats[seat]!.name),
            ];
      sides.push({ token: 0, name: pickName(cands, takenPowerNames), seat, powers });
    } else if (!played.has(p.id)) {
      sides.push({
        token: 0,
        name: pickName(candidatesOf(p.name, p.id), takenPowerNames),
        seat: null,
        powers: [p.id],
      });
    }
  }
  const numbered = sides.map((s, i) => ({ ...s, token: (CATEGORY.power << 8) | i }));
  const standardSides =
    isClassicalMap &&
    scenario.seats.every((s) => s.powers.length === 1) &&
    variant.powers.length === 7;

  // Provinces (impassable ones are not on a DAIDE map: no unit may ever stand there).
  const provinces = map.provinces.filter((p) => !p.impassable);
  const takenProvinceNames = new Set<string>(numbered.map((s) => s.name));
  const nameOfProvince = new Map<ProvinceId, string>();
  // Three-letter ids keep their names first, so that a derived name never takes one.
  const ordered = [...provinces].sort(
    (a, b) => Number(a.id.length !== 3) - Number(b.id.length !== 3),
  );
  for (const p of ordered) {
    const std = isClassicalMap ? STANDARD_NAMES[p.id] : undefined;
    nameOfProvince.set(p.id, pickName([std ?? p.id, ...candidatesOf(p.name)], takenProvinceNames));
  }
  const group = (p: Province) => provinceCategory(p.kind, p.coasts.length, p.supplyCenter) - 0x50;
  const byName = (a: Province, b: Province) =>
    nameOfProvince.get(a.id)! < nameOfProvince.get(b.id)! ? -1 : 1;
  const alphabetical = [...provinces].sort(byName);
  const sorted = [...provinces].sort(
    (a, b) =>
      group(a) - group(b) || (nameOfProvince.get(a.id)! < nameOfProvince.get(b.id)! ? -1 : 1),
  );
  const tokenOfProvince = new Map<ProvinceId, Token>();
  const provinceByToken = new Map<Token, Province>();
  sorted.forEach((p, i) => {
    const token = (provinceCategory(p.kind, p.coasts.length, p.supplyCenter) << 8) | i;
    tokenOfProvince.set(p.id, token);
    provinceByToken.set(token, p);
  });

  const names = new Map<Token, string>();
  const tokens = new Map<string, Token>();
  for (const s of numbered) {
    names.set(s.token, s.name);
    tokens.set(s.name, s.token);
  }
  for (const p of sorted) {
    const name = nameOfProvince.get(p.id)!;
    names.set(tokenOfProvince.get(p.id)!, name);
    tokens.set(name, tokenOfProvince.get(p.id)!);
  }
  const nameSet: Names = { nameOf: (x) => names.get(x), tokenOf: (n) => tokens.get(n) };
  const sideByToken = new Map(numbered.map((s) => [s.token, s]));
  const provinceToken = (id: ProvinceId): Token => {
    const x = tokenOfProvince.get(id);
    if (x === undefined) throw new Error(`province ${id} is not on the DAIDE map`);
    return x;
  };

  const loc = (province: ProvinceId, coast: Coast | null): Item =>
    coast === null ? provinceToken(province) : [provinceToken(province), coastToken(coast)];

  return {
    name: standardSides
      ? "standard"
      : `${variant.id}${scenario.id === String(variant.powers.length) ? "" : `-${scenario.id}`}`,
    standard: standardSides,
    names: nameSet,
    sides: numbered,
    provinceToken,
    provinceOf: (x) => provinceByToken.get(x),
    sideOf(power, seats) {
      const seat = seats.findIndex((s) => s.powers.includes(power));
      if (seat >= 0) {
        // A seat is the side whose first power is the seat's first power at the start.
        const first = seats[seat]!.powers[0]!;
        const side = numbered.find((s) => s.seat !== null && s.powers[0] === first);
        if (side) return side;
      }
      const own = numbered.find((s) => s.powers.includes(power));
      if (!own) throw new Error(`power ${power} has no DAIDE side`);
      return own;
    },
    sideByToken: (x) => sideByToken.get(x),
    representation: () => [
      ...numbered.map((s) => ({ token: s.token, name: s.name })),
      ...sorted.map((p) => ({
        token: tokenOfProvince.get(p.id)!,
        name: nameOfProvince.get(p.id)!,
      })),
    ],
    mdf() {
      const homeOf = (p: Province) =>
        numbered.find((s) => p.home !== null && s.powers.includes(p.home));
      const centres: Item[] = numbered.map((s) => [
        s.token,
        ...alphabetical
          .filter((p) => p.supplyCenter && homeOf(p) === s)
          .map((p) => provinceToken(p.id)),
      ]);
      centres.push([
        tok("UNO"),
        ...alphabetical.filter((p) => p.supplyCenter && !homeOf(p)).map((p) => provinceToken(p.id)),
      ]);
      const others = alphabetical.filter((p) => !p.supplyCenter).map((p) => provinceToken(p.id));
      const passable = (id: ProvinceId) => tokenOfProvince.has(id);
      const adjacencies: Item[] = alphabetical.map((p) => {
        const entry: Item[] = [provinceToken(p.id)];
        if (p.kind !== "sea")
          entry.push([
            tok("AMY"),
            ...map
              .armyNeighbours(p.id)
              .filter(passable)
              .map((q) => provinceToken(q)),
          ]);
        if (p.kind !== "land") {
          const coasts: (Coast | null)[] = p.coasts.length > 0 ? [...p.coasts] : [null];
          for (const c of coasts) {
            const targets = map
              .fleetNeighbours({ province: p.id, coast: c })
              .filter((l) => passable(l.province))
              .map((l) => loc(l.province, l.coast));
            entry.push([c === null ? tok("FLT") : [tok("FLT"), coastToken(c)], ...targets]);
          }
        }
        return entry;
      });
      return [numbered.map((s) => s.token), [centres, others], adjacencies];
    },
  };
}

/** Shows a location as DAIDE writes it: a province, or (province coast). */
export function locationItem(m: DaideMap, province: ProvinceId, coast: Coast | null): Item {
  return coast === null
    ? m.provinceToken(province)
    : [m.provinceToken(province), coastToken(coast)];
}
