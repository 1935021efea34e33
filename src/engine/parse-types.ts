/**
 * What the order reader answers and how tolerant it is: `ParseResult` (an order, or a
 * `Diagnostic` saying what could not be read, where, and what would be right), `ParseOptions`,
 * `PlaceMatch`, and `failure` (a diagnostic as an answer). Types only, and one maker.
 */

import type { ParsedOrder } from "./orders.ts";
import type { Coast, ProvinceId } from "./types.ts";

export interface Diagnostic {
  readonly message: string;
  /** Character offsets into the text of the part that could not be read. */
  readonly start: number;
  readonly end: number;
  readonly suggestions: readonly string[];
}

export type ParseResult =
  | {
      readonly ok: true;
      readonly order: ParsedOrder;
      /**
       * With typo correction only: every reading the text allows when a misspelt name is as
       * close to several (`order` is the first). Absent when there is one reading.
       */
      readonly readings?: readonly ParsedOrder[];
      /** With typo correction or route naming: what was read other than as written. */
      readonly notes?: readonly string[];
      /** With `readings`: the notes of each reading. */
      readonly readingNotes?: readonly (readonly string[])[];
    }
  | { readonly ok: false; readonly error: Diagnostic };

/** How tolerant the reader is (all off by default: the reader as the DATC profile uses it). */
export interface ParseOptions {
  /**
   * Seed 002 III(2). `suggest` (default): an unknown word is an error with suggestions;
   * `correct`: an unambiguous abbreviation or close misspelling is read as meant, several
   * equally close names give several readings. A word that is a name is never corrected.
   */
  readonly typos?: "suggest" | "correct";
  /**
   * Seed 002 VI(3): accept a convoy route written into a move (`A lon - nth - nwy`,
   * `A lon - nwy via nth`) and read it as a move by convoy; the route itself is ignored.
   */
  readonly convoyRoutes?: boolean;
}

export interface PlaceMatch {
  readonly province: ProvinceId;
  readonly coast: Coast | null;
}

export function failure(
  message: string,
  start: number,
  end: number,
  suggestions: readonly string[] = [],
): ParseResult {
  return { ok: false, error: { message, start, end, suggestions } };
}
