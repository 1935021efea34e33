/**
 * The order grammar: `OrderReader` reads one whole order from the tokens (hold, move,
 * support, convoy, retreat, build, remove, waive; `via convoy` and convoy routes; with
 * corrections on, a misspelt verb), on `PlaceReader`'s places and units.
 */

import type { LocationSpec, ParsedOrder, UnitSpec } from "./orders.ts";
import { done, PlaceReader, type Step } from "./parse-reader.ts";
import {
  correctKeyword,
  correctPlaces,
  editDistance,
  orList,
  scorePlaces,
  suggestKeywords,
} from "./parse-spelling.ts";
import type { Keyword } from "./parse-tokens.ts";
import type { ProvinceId } from "./types.ts";

export class OrderReader extends PlaceReader {
  // --- orders ---

  order(): Step<ParsedOrder> {
    let first = this.keyword(0);
    const t0 = this.tokens[0]!;
    if (
      this.fz &&
      first === undefined &&
      t0.kind === "word" &&
      this.matchName(0) === null &&
      this.matchPower(0) === null
    ) {
      // A misspelt build, remove, disband or waive, unless it is closer to a province.
      const k = correctKeyword(t0.text);
      const verbs = k.keywords.filter(
        (w) => w === "build" || w === "remove" || w === "disband" || w === "waive",
      );
      const places = correctPlaces(t0.text, this.index);
      if (verbs.length > 0 && (places.provinces.length === 0 || k.score <= places.score)) {
        // As close to a province: both readings are tried, and the one that reads counts.
        const pick = this.fz.take<Keyword | null>(
          places.provinces.length === 0 ? verbs : [...verbs, null],
        );
        if (pick !== null) {
          first = pick;
          this.note(0, 1, `"${pick}"`);
        }
      }
    }
    if (first === "waive") return done({ kind: "waive" }, 1);
    if (
      (first === "build" || first === "remove" || first === "disband") &&
      this.matchName(0) === null
    ) {
      if (first === "build") {
        const type = this.unitType(1);
        const at = type ? 2 : 1;
        const p = this.place(at, "the province to build in", at - 1);
        if (!p.ok) return p;
        return done({ kind: "build", unitType: type, location: p.value }, p.next);
      }
      const u = this.unit(1, `the unit to ${first}`);
      if (!u.ok) return u;
      return done({ kind: first, unit: u.value }, u.next);
    }
    const subject = this.unit(0, "a unit or province");
    if (!subject.ok) {
      // An unknown first word may be a misspelt order word rather than a place.
      if (t0.kind === "word" && first === undefined && this.matchPower(0) === null) {
        const words = suggestKeywords(t0.text);
        const places = scorePlaces(t0.text, this.index);
        if (
          words.length > 0 &&
          (places.length === 0 || editDistance(t0.text, words[0]!) < places[0]!.score)
        ) {
          return this.fail(
            `unknown word ${this.quote(0)}: did you mean ${orList(words)}?`,
            t0.start,
            t0.end,
            words,
          );
        }
      }
      return subject;
    }
    return this.rest(subject.value, subject.next);
  }

  /** What follows the ordered unit. */
  rest(unit: UnitSpec, i: number): Step<ParsedOrder> {
    const t = this.tokens[i];
    if (!t) return done({ kind: "hold", unit }, i);
    let kw = this.keyword(i);
    if (kw === undefined && this.fz && t.kind === "word") {
      const v = this.correctVerb(i);
      if (v === "place") return this.moveTo(unit, i, i - 1);
      kw = v;
    }
    switch (kw) {
      case "hold":
        return done({ kind: "hold", unit }, i + 1);
      case "disband":
      case "remove":
        if (kw === "remove" && t.text === "r" && this.tokens[i + 1]) return this.move(unit, i);
        return done({ kind: kw, unit }, i + 1);
      case "build":
        return done(
          {
            kind: "build",
            unitType: unit.type,
            location: { province: unit.province, coast: unit.coast },
          },
          i + 1,
        );
      case "move":
      case "retreat":
        return this.move(unit, i);
      case "support": {
        const target = this.unit(i + 1, "the unit to support");
        if (!target.ok) return target;
        const j = target.next;
        const inWord = this.tokens[j];
        if (inWord?.kind === "word" && inWord.text === "in" && this.tokens[j + 1]) {
          // Seed 003, retrospective support: `A rum S A vie in gal` (docs/sequential.md).
          const at = this.place(j + 1, "the province the supported unit moved into", j);
          if (!at.ok) return at;
          const order = { kind: "support", unit, supported: target.value, to: at.value } as const;
          return done({ ...order, arrived: true }, at.next);
        }
        let k = this.keyword(j);
        if (k === undefined && this.fz && this.tokens[j]?.kind === "word") {
          const v = this.correctVerb(j);
          if (v === "place") {
            // `A par S A mar bur`: the dash left out.
            const to = this.place(j, "the destination of the supported move", j - 1);
            if (!to.ok) return to;
            return done({ kind: "support", unit, supported: target.value, to: to.value }, to.next);
          }
          k = v;
        }
        if (k === "hold")
          return done({ kind: "support", unit, supported: target.value, to: null }, j + 1);
        if (k === "move") {
          const to = this.place(j + 1, "the destination of the supported move", j);
          if (!to.ok) return to;
          // "via convoy" changes nothing for a support.
          const via = this.viaConvoy(to.next);
          if (!via.ok) return via;
          return done({ kind: "support", unit, supported: target.value, to: to.value }, via.next);
        }
        return done({ kind: "support", unit, supported: target.value, to: null }, j);
      }
      case "convoy": {
        const target = this.unit(i + 1, "the unit to convoy");
        if (!target.ok) return target;
        const j = target.next;
        let k = this.keyword(j);
        let at = j + 1;
        if (k === undefined && this.fz && this.tokens[j]?.kind === "word") {
          const v = this.correctVerb(j);
          if (v === "place") at = j;
          k = v === "place" ? "move" : v;
        }
        if (k !== "move") {
          const last = this.tokens[j - 1]!;
          const u = this.tokens[j];
          return this.fail(
            `a convoy needs the destination of the convoyed unit: write ${this.sofar(j - 1).slice(0, -1)} - <province>"`,
            u ? u.start : last.start,
            u ? u.end : last.end,
          );
        }
        const to = this.place(at, "the destination of the convoyed unit", at - 1);
        if (!to.ok) return to;
        const via = this.viaConvoy(to.next);
        if (!via.ok) return via;
        return done({ kind: "convoy", unit, convoyed: target.value, to: to.value }, via.next);
      }
      default: {
        const expected = '"-" (move), S (support), C (convoy), H (hold) or D (disband)';
        if (t.kind === "word" && this.matchName(i)) {
          return this.fail(
            `expected ${expected} between ${this.sofar(i - 1)} and ${this.quote(i)}`,
            t.start,
            t.end,
            [],
          );
        }
        if (t.kind !== "word" || kw !== undefined) {
          return this.fail(
            `expected ${expected} after ${this.sofar(i - 1)}, found ${this.quote(i)}`,
            t.start,
            t.end,
          );
        }
        const words = suggestKeywords(t.text);
        const hint = words.length > 0 ? `did you mean ${orList(words)}?` : `expected ${expected}`;
        return this.fail(
          `unknown word ${this.quote(i)} after ${this.sofar(i - 1)}: ${hint}`,
          t.start,
          t.end,
          words,
        );
      }
    }
  }

  move(unit: UnitSpec, i: number): Step<ParsedOrder> {
    const t = this.tokens[i]!;
    if (!this.tokens[i + 1]) {
      return this.fail(
        `missing destination after ${this.quote(i)}: write a province, as in "A lon - nth"`,
        t.start,
        t.end,
      );
    }
    // "F Lon-Holds": a hold word after the dash, and nothing else, is a hold (the 1935
    // committee's spelling), unless the word names a place.
    const next = this.tokens[i + 1]!;
    if (this.keyword(i + 1) === "hold" && !this.tokens[i + 2] && !this.index.names.has(next.text)) {
      return done({ kind: "hold", unit }, i + 2);
    }
    return this.moveTo(unit, i + 1, i);
  }

  /** A move's destination at token `at`, and what may follow it (a route, "via convoy"). */
  moveTo(unit: UnitSpec, at: number, after: number): Step<ParsedOrder> {
    const to = this.place(at, "a destination", after);
    if (!to.ok) return to;
    if (this.routes) {
      const r = this.route(to.value, to.next);
      if (r) return r.ok ? done({ kind: "move", unit, to: r.value, viaConvoy: true }, r.next) : r;
    }
    const via = this.viaConvoy(to.next);
    if (!via.ok) return via;
    return done({ kind: "move", unit, to: to.value, viaConvoy: via.value }, via.next);
  }

  /** Whether province `p` is a sea. */
  isSea(p: ProvinceId): boolean {
    return this.index.provinces.get(p)?.kind === "sea";
  }

  /**
   * A convoy route written after a move's first place (seed 002 VI(3)): `- nth - nwy` (the
   * first place was a sea on the way) or `via nth, nwg` (seas after the destination). The
   * route is read and set aside; the answer is the destination. null: no route written.
   */
  route(first: LocationSpec, i: number): Step<LocationSpec> | null {
    const t = this.tokens[i];
    if (t?.kind === "move" && this.tokens[i + 1]) {
      const seas = [first];
      let dest: LocationSpec = first;
      let k = i;
      while (this.tokens[k]?.kind === "move" && this.tokens[k + 1]) {
        const p = this.place(k + 1, "a place on the convoy route", k);
        if (!p.ok) return p;
        seas.push(p.value);
        dest = p.value;
        k = p.next;
      }
      seas.pop();
      const land = seas.find((s) => !this.isSea(s.province));
      if (land) {
        return this.fail(
          `a convoy route goes through seas only, and ${this.index.provinces.get(land.province)?.name ?? land.province} is not a sea`,
          t.start,
          this.tokens[k - 1]!.end,
        );
      }
      this.routeNotes.push(
        `the convoy route through ${seas.map((s) => s.province).join(", ")} is ignored: any fleets ordered to convoy the army may carry it`,
      );
      const via = this.viaConvoy(k);
      if (!via.ok) return via;
      return done(dest, via.next);
    }
    if (this.keyword(i) === "via" && this.keyword(i + 1) !== "convoy" && this.tokens[i + 1]) {
      const seas: LocationSpec[] = [];
      let k = i + 1;
      while (this.tokens[k]) {
        if (this.tokens[k]?.kind === "word" && this.tokens[k]?.text === "and") {
          k++;
          continue;
        }
        const p = this.place(k, "a sea of the convoy route", k - 1);
        if (!p.ok || !this.isSea(p.value.province)) break;
        seas.push(p.value);
        k = p.next;
      }
      if (seas.length === 0) return null;
      this.routeNotes.push(
        `the convoy route through ${seas.map((s) => s.province).join(", ")} is ignored: any fleets ordered to convoy the army may carry it`,
      );
      return done(first, k);
    }
    return null;
  }

  /** Notes about routes set aside, whether or not corrections are on. */
  readonly routeNotes: string[] = [];

  /**
   * With correction on, what an unknown word after a unit means: an order word close to it,
   * or a place (the dash left out, `A par bur`). undefined when neither.
   */
  correctVerb(i: number): Keyword | "place" | undefined {
    const t = this.tokens[i];
    if (!this.fz || t?.kind !== "word") return undefined;
    if (this.matchName(i) !== null) return "place";
    const k = correctKeyword(t.text);
    const places = this.correctedName(i);
    if (k.keywords.length > 0 && (places === null || k.score <= places.score)) {
      // As close to a place as to a word: both readings are tried.
      const w = this.fz.take<Keyword | "place">(
        places === null ? k.keywords : [...k.keywords, "place"],
      );
      if (w !== "place") this.note(i, 1, `"${w}"`);
      return w;
    }
    return places ? "place" : undefined;
  }
}
