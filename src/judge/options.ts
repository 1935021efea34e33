import { bots, defaultBot, getBot } from "../bots/index.ts";
import type { PhaseType } from "../engine/types.ts";
import { invalid } from "./errors.ts";

/*
 * The judge's options for one game: everything the house rules (seed 002) leave to the
 * game master. Each has the clause it comes from and its default; docs/judge.md lists them.
 */

export type DeadlineUnit = "days" | "hours" | "minutes";

export interface GameOptions {
  /** Seed 002 VII(4): at least 3 days per movement turn, 1 per retreat or adjustment turn. */
  readonly deadlines: {
    readonly unit: DeadlineUnit;
    readonly movement: number;
    readonly retreats: number;
    readonly adjustments: number;
  };
  /**
   * Seed 002 VII(2), Alternative A: adjudication never takes place before the deadline
   * (false). true: a phase resolves as soon as every power that must order has a final set.
   */
  readonly resolveEarly: boolean;
  /**
   * Seed 002 VII(6): a player who missed a phase keeps the seat; emptying it is the GM's act.
   * Consecutive missed phases after which the judge itself empties the seat and offers it to
   * a replacement (the old automatic behaviour); 0 (the default): never.
   */
  readonly civilDisorderAfter: number;
  /**
   * Seed 002 VII(6): hours after the results of a missed phase during which the GM tries to
   * reach the player; when they pass with no orders from the player, the GM is told that a
   * replacement may be arranged. Default 24.
   */
  readonly contactWindowHours: number;
  /** Seed 002 X(1), Alternative C: white and grey press accepted (dark grey and black never). */
  readonly press: {
    readonly white: boolean;
    readonly grey: boolean;
    /**
     * Seed 002 II(5): "there is NO negotiation outside of the spring and fall phases": no
     * press between players in retreat and adjustment phases (false).
     */
    readonly duringRetreatsAndAdjustments: boolean;
    /**
     * Seed 002 X(1): "the GM reserves the right to refuse to publish". true: a player's press
     * is held until the GM approves it (then delivered as sent) or refuses it with a reason,
     * told to its author (src/judge/press.ts). false (the default): press goes out at once.
     * The GM's own press is never held. Absent in games made before it: off.
     */
    readonly review?: boolean;
    /**
     * DAIDE clients' press (docs/daide.md, level 10: SND and FRM through this game's press).
     * false: the game's DAIDE clients play at level 0 (HLO says LVL 0, SND is refused, no
     * FRM is sent): for clients that cannot take press (DumbBot 8~3 crashes on an FRM).
     * Absent (the default): on, when white press is.
     */
    readonly daide?: boolean;
  };
  /** The game starts by itself when the last seat is taken (true), or when the GM says. */
  readonly startWhenFull: boolean;
  /**
   * Seed 002 IX(2), Alternative A: game years with no supply centre changing hands after
   * which the GM may declare a draw of all survivors (after a warning).
   */
  readonly drawAfterYearsWithoutChange: number;
  /**
   * Seed 002 IX(2), Alternative A, as issue 18 asks: game years that must pass after the GM's
   * warning, with no supply centre changing hands, before the draw may be declared. Default 1.
   */
  readonly drawWarningYears: number;
  /**
   * Chaired play (seed 000): when the chairs' orders timer runs out, the judge resolves the
   * open phase at once, as the chair's "Reveal all orders" would (true). false (the default):
   * the chair is told that the time is up and resolves when the room is ready.
   */
  readonly resolveWhenOrdersTimerEnds: boolean;
  /**
   * Issue 31: a power whose orders are missing when its phase is adjudicated (its player
   * missed them, or nobody holds the seat) is played by a built-in player (src/bots: the id,
   * or "default" for the strongest) from that phase on, instead of holding, until a player is
   * seated again or its player sends orders again; the player and the GM are told
   * (src/judge/bot-play.ts). false (the default): missed orders hold (seed 002 VII(6)). Absent in
   * games made before it: off.
   */
  readonly botTakeover?: false | string;
}

export const DEFAULT_OPTIONS: GameOptions = {
  deadlines: { unit: "days", movement: 3, retreats: 1, adjustments: 1 },
  resolveEarly: false,
  civilDisorderAfter: 0,
  contactWindowHours: 24,
  press: { white: true, grey: true, duringRetreatsAndAdjustments: false, review: false },
  startWhenFull: true,
  drawAfterYearsWithoutChange: 2,
  drawWarningYears: 1,
  resolveWhenOrdersTimerEnds: false,
  botTakeover: false,
};

/** Options as a client may give them: any part, the rest from the base. */
export interface OptionsPatch {
  readonly deadlines?: Partial<GameOptions["deadlines"]> | undefined;
  readonly resolveEarly?: boolean | undefined;
  readonly civilDisorderAfter?: number | undefined;
  readonly contactWindowHours?: number | undefined;
  readonly press?: Partial<GameOptions["press"]> | undefined;
  readonly startWhenFull?: boolean | undefined;
  readonly drawAfterYearsWithoutChange?: number | undefined;
  readonly drawWarningYears?: number | undefined;
  readonly resolveWhenOrdersTimerEnds?: boolean | undefined;
  /** A bot's id, "default" (the strongest), true (the same) or false (off). */
  readonly botTakeover?: boolean | string | undefined;
}

const UNIT_MS: Record<DeadlineUnit, number> = {
  days: 86_400_000,
  hours: 3_600_000,
  minutes: 60_000,
};

function defined<T extends object>(o: T | undefined): Partial<T> {
  if (!o) return {};
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** The base with a patch applied, checked. */
export function mergeOptions(base: GameOptions, patch: OptionsPatch | undefined): GameOptions {
  const p = patch ?? {};
  const out: GameOptions = {
    deadlines: { ...base.deadlines, ...defined(p.deadlines) },
    resolveEarly: p.resolveEarly ?? base.resolveEarly,
    civilDisorderAfter: p.civilDisorderAfter ?? base.civilDisorderAfter,
    contactWindowHours:
      p.contactWindowHours ?? base.contactWindowHours ?? DEFAULT_OPTIONS.contactWindowHours,
    press: { ...base.press, ...defined(p.press) },
    startWhenFull: p.startWhenFull ?? base.startWhenFull,
    drawAfterYearsWithoutChange: p.drawAfterYearsWithoutChange ?? base.drawAfterYearsWithoutChange,
    drawWarningYears:
      p.drawWarningYears ?? base.drawWarningYears ?? DEFAULT_OPTIONS.drawWarningYears,
    resolveWhenOrdersTimerEnds:
      p.resolveWhenOrdersTimerEnds ??
      base.resolveWhenOrdersTimerEnds ??
      DEFAULT_OPTIONS.resolveWhenOrdersTimerEnds,
    botTakeover: readBotTakeover(p.botTakeover, base.botTakeover ?? false),
  };
  const d = out.deadlines;
  if (!(d.unit in UNIT_MS)) throw invalid(`deadlines.unit must be days, hours or minutes`);
  for (const k of ["movement", "retreats", "adjustments"] as const) {
    const v = d[k];
    if (
      typeof v !== "number" ||
      !Number.isFinite(v) ||
      v <= 0 ||
      v * UNIT_MS[d.unit] > 365 * UNIT_MS.days
    ) {
      throw invalid(`deadlines.${k} must be a positive number of ${d.unit}, at most a year`);
    }
    if (v * UNIT_MS[d.unit] < 1000) throw invalid(`deadlines.${k} must be at least a second`);
  }
  if (!Number.isInteger(out.civilDisorderAfter) || out.civilDisorderAfter < 0) {
    throw invalid("civilDisorderAfter must be a whole number, 0 or more");
  }
  const w = out.contactWindowHours;
  if (typeof w !== "number" || !Number.isFinite(w) || w < 0 || w > 24 * 365) {
    throw invalid("contactWindowHours must be a number of hours, 0 to 8760 (a year)");
  }
  if (!Number.isInteger(out.drawAfterYearsWithoutChange) || out.drawAfterYearsWithoutChange < 1) {
    throw invalid("drawAfterYearsWithoutChange must be a whole number, 1 or more");
  }
  if (!Number.isInteger(out.drawWarningYears) || out.drawWarningYears < 0) {
    throw invalid("drawWarningYears must be a whole number of game years, 0 or more");
  }
  return out;
}

/** The option botTakeover as given: off, or a known bot's id ("default" and true: the first). */
function readBotTakeover(
  given: boolean | string | undefined,
  base: false | string,
): false | string {
  if (given === undefined) return base;
  if (given === false) return false;
  const id = given === true || given === "default" ? defaultBot().id : given;
  if (!getBot(id))
    throw invalid(
      `botTakeover must be false, true, "default" or a built-in player's id: ${bots.map((b) => b.id).join(", ")}; not "${given}"`,
    );
  return id;
}

/** How long a phase of this type lasts. */
export function phaseLengthMs(options: GameOptions, type: PhaseType): number {
  const d = options.deadlines;
  const n = type === "M" ? d.movement : type === "R" ? d.retreats : d.adjustments;
  return Math.round(n * UNIT_MS[d.unit]);
}
