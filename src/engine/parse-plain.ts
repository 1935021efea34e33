/**
 * The order texts written in the plain form the contract's corpora and the judge's own order
 * lists use (`A par H`, `A par - bur`, `F nth S A par`, `A mun S A par - bur`,
 * `F nth C A lon - nwy`: a type letter, province ids in lower case, single spaces), read
 * directly: the answer is the one the full reader gives (`parseOrder`), made where it is
 * used. A corpus's orders are a few thousand such texts over and over; looking each up in
 * the cache of texts read meant memory the processor had to fetch (12,000 texts' readings
 * over some 2 MB of heap) and was a tenth of the contract's time, more than reading them
 * here (docs/performance.md, "Fourth pass on the contract"). Anything else (coasts, names,
 * other words, other spacing) is null, and the full reader reads it.
 *
 * A province id is taken here only if the full reader reads it as itself in each place of
 * these forms (checked once per map, against the reader: an id that is also an order word
 * would not be); src/engine/parse-plain.test.ts compares the two readers.
 */

import type { GameMap } from "./map.ts";
import type { LocationSpec, ParsedOrder, UnitSpec } from "./orders.ts";
import { keptFor, type PerMapAndPowers } from "./parse-names.ts";
import type { ParseResult } from "./parse-types.ts";
import type { Power, ProvinceId, UnitType } from "./types.ts";

/** A province id of 2 to 4 lower-case letters as a number (5 bits a letter, then the length). */
function idKey(s: string, from: number, to: number): number {
  let k = 0;
  for (let i = from; i < to; i++) k = (k << 5) | (s.charCodeAt(i) - 96);
  return (k << 3) | (to - from);
}

/** A unit as the full reader makes it (one maker: one hidden class). */
const unitSpec = (type: UnitType, province: ProvinceId): UnitSpec => ({
  type,
  province,
  coast: null,
  power: null,
});

const place = (province: ProvinceId): LocationSpec => ({ province, coast: null });

/**
 * A province read here: its army and fleet as an order names them and the place, each made
 * once and shared by every reading (readonly, as the cache's readings were shared by every
 * text read again): a reading allocates only itself and its order.
 */
interface PlainPlace {
  readonly army: UnitSpec;
  readonly fleet: UnitSpec;
  readonly place: LocationSpec;
}

type PlainIds = Map<number, PlainPlace>;

/** Per map and powers: the ids read here, by `idKey`; made on first use (`checkedIds`). */
const plainIds: PerMapAndPowers<PlainIds> = new WeakMap();

/** The ids asked for last (a stream of one game asks for them again and again). */
let last: { map: GameMap; powers: readonly Power[]; ids: PlainIds } | null = null;

/**
 * The map's ids the full reader reads as themselves in every place of the plain forms (with
 * these powers: a power's name is a word the reader knows). `read` is the full reader
 * (passed in: parse.ts imports this file).
 */
function checkedIds(
  map: GameMap,
  powers: readonly Power[],
  read: (text: string) => ParseResult,
): PlainIds {
  if (last !== null && last.map === map && last.powers === powers) return last.ids;
  const ids = keptFor(plainIds, map, powers, () => plainIdsOf(map, read));
  last = { map, powers, ids };
  return ids;
}

function plainIdsOf(map: GameMap, read: (text: string) => ParseResult): PlainIds {
  const ids: PlainIds = new Map();
  const same = (r: ParseResult, want: ParsedOrder): boolean =>
    r.ok && r.readings === undefined && r.notes === undefined && sameOrder(r.order, want);
  for (const p of map.provinces) {
    const id = p.id;
    if (!/^[a-z]{2,4}$/.test(id)) continue;
    const a = unitSpec("A", id);
    const f = unitSpec("F", id);
    const ok =
      same(read(`A ${id} H`), { kind: "hold", unit: a }) &&
      same(read(`F ${id} H`), { kind: "hold", unit: f }) &&
      same(read(`A ${id} - ${id}`), { kind: "move", unit: a, to: place(id), viaConvoy: false }) &&
      same(read(`F ${id} S A ${id}`), { kind: "support", unit: f, supported: a, to: null }) &&
      same(read(`A ${id} S F ${id} - ${id}`), {
        kind: "support",
        unit: a,
        supported: f,
        to: place(id),
      }) &&
      same(read(`F ${id} C A ${id} - ${id}`), {
        kind: "convoy",
        unit: f,
        convoyed: a,
        to: place(id),
      });
    if (ok) ids.set(idKey(id, 0, id.length), { army: a, fleet: f, place: place(id) });
  }
  return ids;
}

/** Two orders the same, field by field and in the same order of fields (JSON's view). */
const sameOrder = (a: ParsedOrder, b: ParsedOrder): boolean =>
  JSON.stringify(a) === JSON.stringify(b) && Object.keys(a).length === Object.keys(b).length;

/**
 * The reading of a text in a plain form, or null for any other text. `read` is the full
 * reader with the same options (the ids are checked against it on first use).
 */
export function readPlain(
  text: string,
  map: GameMap,
  powers: readonly Power[],
  read: (text: string) => ParseResult,
): ParseResult | null {
  const n = text.length;
  if (n < 7 || n > 40) return null;
  const ids = checkedIds(map, powers, read);
  // The unit: `A xxx` or `F xxx`.
  const t0 = text.charCodeAt(0);
  if ((t0 !== 65 && t0 !== 70) || text.charCodeAt(1) !== 32) return null;
  let i = 2;
  let j = idEnd(text, i);
  const p0 = ids.get(idKey(text, i, j));
  if (p0 === undefined || j === n || text.charCodeAt(j) !== 32 || j + 2 > n) return null;
  const unit = t0 === 65 ? p0.army : p0.fleet;
  const word = text.charCodeAt(j + 1);
  if (j + 2 === n) return word === 72 ? ok({ kind: "hold", unit }) : null; // H
  if (text.charCodeAt(j + 2) !== 32) return null;
  i = j + 3;
  if (word === 45) {
    // - xxx
    j = idEnd(text, i);
    const to = ids.get(idKey(text, i, j));
    if (to === undefined || j !== n) return null;
    return ok({ kind: "move", unit, to: to.place, viaConvoy: false });
  }
  if (word !== 83 && word !== 67) return null; // S, C
  // S/C T xxx [- yyy]
  const t1 = text.charCodeAt(i);
  if ((t1 !== 65 && t1 !== 70) || text.charCodeAt(i + 1) !== 32) return null;
  i += 2;
  j = idEnd(text, i);
  const p1 = ids.get(idKey(text, i, j));
  if (p1 === undefined) return null;
  const other = t1 === 65 ? p1.army : p1.fleet;
  if (j === n)
    return word === 83 ? ok({ kind: "support", unit, supported: other, to: null }) : null;
  if (
    j + 3 >= n ||
    text.charCodeAt(j) !== 32 ||
    text.charCodeAt(j + 1) !== 45 ||
    text.charCodeAt(j + 2) !== 32
  )
    return null;
  i = j + 3;
  j = idEnd(text, i);
  const to = ids.get(idKey(text, i, j));
  if (to === undefined || j !== n) return null;
  return word === 83
    ? ok({ kind: "support", unit, supported: other, to: to.place })
    : ok({ kind: "convoy", unit, convoyed: other, to: to.place });
}

/** Where a run of 2 to 4 lower-case letters from `i` ends; `i` when there is none such. */
function idEnd(text: string, i: number): number {
  let j = i;
  while (j < text.length && j - i < 5) {
    const c = text.charCodeAt(j);
    if (c < 97 || c > 122) break;
    j++;
  }
  return j - i >= 2 && j - i <= 4 ? j : i;
}

const ok = (order: ParsedOrder): ParseResult => ({ ok: true, order });
