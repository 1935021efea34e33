import { parsePhase, phaseName, phaseOrdinal } from "../engine/phase.ts";
import { committeeFields } from "./committee.ts";
import { conflict, invalid } from "./errors.ts";
import { centreChangeSince, latestEventData, seatOf } from "./game-data.ts";
import { DEFAULT_OPTIONS } from "./options.ts";
import { powerNamed, survivingPowers } from "./played.ts";
import type { JudgeCore, User } from "./room.ts";
import { Room } from "./room.ts";
import type { Views } from "./views.ts";

/*
 * The end of a game by the game master: ending it (a draw, a conceded win, abandoned, or on
 * the europe1935 committee's victory points), and the draw declared after years without a
 * supply centre changing hands, with its warning period (seed 002 IX(2)). Ending by a vote is
 * votes.ts; by a victory, the adjudication (adjudication.ts); all end through `finish`
 * (room.ts).
 * A room of the judge (judge.ts builds the rooms; room.ts the shared helpers); calls
 * views.ts.
 */

/** The phase `years` game years after `phase` (the same season): when a warned draw may come. */
export function drawPossibleFrom(phase: string, years: number): string {
  const p = parsePhase(phase);
  return p ? phaseName({ ...p, year: p.year + years }) : phase;
}

export class Endings extends Room {
  constructor(
    core: JudgeCore,
    private readonly views: Views,
  ) {
    super(core);
  }

  /**
   * Ends the game: a draw, a conceded win, abandoned, or (a game with the europe1935
   * committee) on victory points, the seed's way of winning it: the chairs end the session and
   * the power alone on the highest total wins; a tie at the top is a draw between the leaders.
   */
  async endGame(
    user: User,
    gameId: string,
    input: {
      result: "draw" | "concession" | "abandoned" | "points";
      powers?: readonly string[] | undefined;
      note?: string | undefined;
    },
  ) {
    await this.mutatePlayed(gameId, async (trx, g) => {
      this.requireGm(g, user);
      if (g.game.status === "finished") throw conflict("the game is already over");
      const powers = (input.powers ?? []).map((p) => powerNamed(g.powers, p) ?? p.toLowerCase());
      for (const p of powers) {
        if (seatOf(g.seats, p) === -1) throw invalid(`nobody plays "${p}" in this game`);
      }
      if (input.result === "concession" && powers.length !== 1) {
        throw invalid("a concession names exactly one power");
      }
      if (input.result === "points") {
        const own = g.own;
        const { scores } = own.kind === "diplomacy" ? await committeeFields(trx, own.game) : {};
        if (!scores)
          throw invalid(
            own.kind === "diplomacy"
              ? `${own.game.scenario.variant.id} has no victory points: end it with "draw", "concession" or "abandoned"`
              : `a ${own.game.rules.name} game is won on victory points by its own end (seed 004 §6), not by the GM: end it with "draw", "concession" or "abandoned"`,
          );
        const totals = Object.fromEntries(scores.rows.map((r) => [r.power, r.total]));
        await this.finish(trx, g, {
          kind: "points",
          winner: scores.winner,
          powers: [...scores.leaders],
          scores: totals,
          by: "gm",
          ...(input.note ? { note: input.note } : {}),
        });
        return;
      }
      const result =
        input.result === "draw"
          ? {
              kind: "draw",
              powers: powers.length > 0 ? powers : survivingPowers(g),
              by: "gm",
            }
          : input.result === "concession"
            ? { kind: "concession", winner: powers[0], by: "gm" }
            : { kind: "abandoned", by: "gm" };
      await this.finish(trx, g, { ...result, ...(input.note ? { note: input.note } : {}) });
    });
    return this.views.gameView(user, gameId);
  }

  /**
   * Seed 002 IX(2), Alternative A: after `drawAfterYearsWithoutChange` game years with no
   * supply centre changing hands, the GM may, after a warning, declare a draw of all
   * survivors. `warn: true` gives the warning; the declaration needs the warning period
   * (`drawWarningYears`, default one game year) to have passed since the last warning with no
   * centre changing hands: a change voids the warning.
   */
  async declareDraw(user: User, gameId: string, input: { warn: boolean }) {
    await this.mutatePlayed(gameId, async (trx, g) => {
      this.requireGm(g, user);
      if (g.game.status !== "active") throw conflict("the game is not running");
      // Game years in Diplomacy; turns in a game counted in turns (played.ts).
      const { periods: years, unit } = g.quiet();
      const count = unit === "turn" ? { turns: years } : { years };
      const units = unit === "turn" ? "turn(s)" : "game year(s)";
      const needed = g.options.drawAfterYearsWithoutChange;
      const period = g.options.drawWarningYears ?? DEFAULT_OPTIONS.drawWarningYears;
      const own = g.own;
      // Where the game stood at the warning: phases adjudicated (Diplomacy) or turns.
      const played =
        own.kind === "diplomacy" ? own.game.record.phases.length : own.game.turns.length;
      const stillWithout = () => {
        if (years < needed)
          throw conflict(
            `supply centres changed hands ${years === 0 ? `in the last ${unit}` : `${years} ${unit}(s) ago`}; a draw may be declared after ${needed} ${unit === "turn" ? "turns" : "years"} without change`,
          );
      };
      if (input.warn) {
        stillWithout();
        await this.emit(trx, gameId, "draw_warning", "public", {
          ...count,
          phase: g.state.phase,
          after: played,
          period,
          ...(own.kind === "diplomacy" ? { from: drawPossibleFrom(g.state.phase, period) } : {}),
        });
        return;
      }
      const w = await latestEventData<{
        phase?: string;
        after?: number;
        years?: number;
        turns?: number;
      }>(trx, gameId, "draw_warning");
      if (!w) throw conflict('warn the players first (seed 002 IX(2)): send {"warn": true}');
      const warnedIn = w.phase ?? g.state.phase;
      const lapsed = (where: string) =>
        conflict(
          `supply centres changed hands ${where}, after the warning given in ${warnedIn}: the warning lapsed; warn again`,
        );
      if (own.kind === "diplomacy") {
        // A warning of an older version carries no `after`: its phase says where it was given.
        const record = own.game.record;
        const after =
          w.after ??
          (() => {
            const i = record.phases.findIndex((p) => p.phase === warnedIn);
            return i === -1 ? record.phases.length : i;
          })();
        const changed = centreChangeSince(record, after);
        if (changed) throw lapsed(`in ${changed}`);
        const from = drawPossibleFrom(warnedIn, period);
        const now = parsePhase(g.state.phase);
        const at = parsePhase(from);
        if (now && at && phaseOrdinal(now) < phaseOrdinal(at)) {
          throw conflict(
            `the warning given in ${warnedIn} runs ${period} game year(s): the draw may be declared from ${from} if no supply centre changes hands until then`,
          );
        }
      } else {
        // A game of turns: every turn is a period; quiet turns grow by one per turn played
        // since the warning unless a supply area changed hands.
        const since = played - (w.after ?? played);
        if (years < (w.turns ?? 0) + since) throw lapsed("since");
        if (since < period) {
          throw conflict(
            `the warning given in ${warnedIn} runs ${period} ${units}: ${period - since} more turn(s) without a supply area changing hands`,
          );
        }
      }
      stillWithout();
      await this.finish(trx, g, { kind: "draw", powers: survivingPowers(g), by: "gm", ...count });
    });
    return this.views.gameView(user, gameId);
  }
}
