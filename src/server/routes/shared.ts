import { invalid, unauthenticated } from "../../judge/errors.ts";
import type { User } from "../../judge/judge.ts";
import { bool, either, int, num, obj, oneOf, optional, str } from "../schema.ts";

/*
 * What the API's routes share: the schemas of a user name, a password, a power and a game's
 * judge options, and the checks of a caller (logged in) and of an event id (`after`).
 */

export const name = str({ min: 2, max: 40, description: "user name", example: "alice" });
export const password = str({
  min: 8,
  max: 200,
  description:
    "at least 8 characters, not white space only, not your name, not a commonly breached password (docs/judge.md)",
});
export const power = str({
  min: 1,
  max: 40,
  description: "a power's id or name",
  example: "england",
});
export const optionsSchema = obj(
  {
    deadlines: optional(
      obj({
        unit: optional(oneOf(["days", "hours", "minutes"] as const, "default days")),
        movement: optional(
          num({ min: 0.001, max: 525_600, description: "default 3 (seed 002 VII(4))" }),
        ),
        retreats: optional(num({ min: 0.001, max: 525_600, description: "default 1" })),
        adjustments: optional(num({ min: 0.001, max: 525_600, description: "default 1" })),
      }),
    ),
    resolveEarly: optional(
      bool("resolve as soon as every power's orders are final; default false (seed 002 VII(2) A)"),
    ),
    civilDisorderAfter: optional(
      int({
        min: 0,
        max: 100,
        description:
          "missed phases in a row after which the judge itself empties the seat (civil disorder); 0 never (the GM decides); default 0",
      }),
    ),
    contactWindowHours: optional(
      num({
        min: 0,
        max: 8760,
        description:
          "hours after a missed phase's results before the GM is told a replacement may be arranged; default 24 (seed 002 VII(6))",
      }),
    ),
    press: optional(
      obj({
        white: optional(bool("signed press; default true")),
        grey: optional(bool("anonymous press; default true")),
        duringRetreatsAndAdjustments: optional(bool("default false (seed 002 II(5))")),
        review: optional(
          bool(
            "hold players' press until the GM approves or refuses it (seed 002 X(1)); default false",
          ),
        ),
        daide: optional(
          bool(
            "DAIDE clients' press (level 10, docs/daide.md); false: they play at level 0 (no press); default true",
          ),
        ),
      }),
    ),
    startWhenFull: optional(bool("start when the last seat is taken; default true")),
    drawAfterYearsWithoutChange: optional(
      int({ min: 1, max: 100, description: "seed 002 IX(2) A; default 2" }),
    ),
    drawWarningYears: optional(
      int({
        min: 0,
        max: 100,
        description:
          "game years after the GM's draw warning, with no centre changing hands, before the draw may be declared; default 1 (seed 002 IX(2) A)",
      }),
    ),
    botTakeover: optional(
      either(
        bool("true: the strongest built-in player; false: off"),
        str({ max: 40, description: 'a built-in player\'s id, or "default"' }),
        "a built-in player plays a power whose orders are missing (its player missed them, or its seat is empty) from then on, instead of holding, until a player is seated again or sends orders; default false (docs/judge.md)",
      ),
    ),
    resolveWhenOrdersTimerEnds: optional(
      bool(
        "chaired play (seed 000): resolve the open phase when the chairs' orders timer runs out; default false (the chair is told and resolves)",
      ),
    ),
  },
  "judge options; every field optional (docs/judge.md)",
);
export const need = (u: User | null): User => {
  if (!u) throw unauthenticated("log in first: send Authorization: Bearer <token>");
  return u;
};

/**
 * The cursor of a list read in parts (`/press`, `/outbox`, `/events`): `?after=`, else the
 * `Last-Event-ID` header of a reconnecting event stream; left out or empty, 0 (from the
 * start). Anything but an id is refused, as `wholeQuery` refuses.
 */
export const afterParam = (q: URLSearchParams, header?: string | string[]): number => {
  const raw = q.get("after") ?? (typeof header === "string" ? header : undefined);
  if (raw === undefined || raw === null || raw === "") return 0;
  return whole(raw, "after", 0, Number.MAX_SAFE_INTEGER, "an id (a whole number from 0)");
};

/**
 * A whole-number query parameter from `min` to `max`; left out or empty (`?turn=`), undefined
 * (the route's default). Anything else is refused, saying what the parameter `must` be.
 */
export const wholeQuery = (
  q: URLSearchParams,
  key: string,
  min: number,
  max: number,
  must: string,
): number | undefined => {
  const raw = q.get(key);
  return raw === null || raw === "" ? undefined : whole(raw, key, min, max, must);
};

/** `raw` as a whole number from `min` to `max`, or refused, saying what `key` must be. */
function whole(raw: string, key: string, min: number, max: number, must: string): number {
  // Digits only: Number() would read " " as 0, "1e2" as 100 and "0x10" as 16.
  const n = /^-?\d{1,16}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(n >= min && n <= max)) throw invalid(`"${key}" must be ${must}, not "${raw}"`);
  return n;
}
