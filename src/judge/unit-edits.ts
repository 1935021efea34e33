import { PositionError, readPosition, writePosition } from "../engine/position-json.ts";
import { applyEdits } from "../engine/record.ts";
import type { PowerId } from "../engine/types.ts";
import { conflict, ExtraUnitTooNew, invalid } from "./errors.ts";
import { type ExtraUnitCause, extraUnitByRule, extraUnitOrigin } from "./extra-unit.ts";
import type { MoveUnitEdit, RemoveUnitEdit } from "./game-data.ts";
import { type PlayedGame, powerNamed } from "./played.ts";
import type { JudgeCore, Tx, User } from "./room.ts";
import { Room } from "./room.ts";
import type { Views } from "./views.ts";

/*
 * The game master's edits of the board between phases: removing an extra unit (seed 002
 * VIII(2), any family) and putting a misplaced unit where it should stand or disbanding it
 * (VIII(3), Diplomacy games). Each is kept in the record's `edits`, which every reading of a
 * position applies (`applyEdits`), so the record still replays; corrections of a whole
 * adjudication are gm-tools.ts.
 * A room of the judge (judge.ts builds the rooms; room.ts the shared helpers); calls
 * views.ts.
 */

export class UnitEdits extends Room {
  constructor(
    core: JudgeCore,
    private readonly views: Views,
  ) {
    super(core);
  }

  /**
   * Removes an extra unit from the board now (seed 002 VIII(2), Alternative B), in a game of
   * any family whose units stand in areas (a Global Diplomacy unit is `F 233`, or its area
   * `233`). The GM names the unit (one the GM's own error put or left on the board), or, in a
   * Diplomacy game, says how it came to be and the house rule names it (extra-unit.ts): too
   * many built (`cause: "built"`, the excess-builds rule, in the adjustment phase `phase` or
   * the last one the power built in), too few removed (`"not-removed"`, the civil-disorder
   * rule, distances from the position now). Where a family's units are secret (seed 004 §8),
   * only the GM and the unit's power are told.
   */
  async removeUnit(
    user: User,
    gameId: string,
    input: {
      power: string;
      unit?: string | undefined;
      cause?: ExtraUnitCause | undefined;
      phase?: string | undefined;
      reason: string;
    },
  ) {
    const removed = await this.boardEdit(user, gameId, async (trx, g) => {
      const power = this.powerIn(g, input.power);
      if ((input.unit === undefined) === (input.cause === undefined)) {
        throw invalid(
          'name the unit ("unit": "A par"), or say how it came to be ("cause": "built" or "not-removed") and the house rule names it, not both',
        );
      }
      const own = g.own;
      const units =
        own.kind === "diplomacy"
          ? writePosition(own.game.scenario.variant, own.game.position).units
          : own.game.position.units;
      if (typeof units !== "object" || units === null)
        throw conflict(`a ${g.game.variant} game has no units standing in areas: none to remove`);
      const list = ((units as Record<string, readonly string[]>)[power] ?? []).map(String);
      let unit: string;
      let rule: string | null = null;
      if (input.unit !== undefined) {
        const wanted = input.unit.trim().replace(/\s+/g, " ").toLowerCase();
        // The unit as the position writes it (`A par`, `F 233`), or its area alone.
        const found = list.find((u) => {
          const w = u.toLowerCase();
          return w === wanted || w.slice(w.indexOf(" ") + 1) === wanted;
        });
        if (!found) {
          throw invalid(
            `${power} has no unit "${input.unit}"; its units: ${list.join(", ") || "none"}`,
          );
        }
        unit = found;
      } else if (own.kind === "diplomacy") {
        const x = extraUnitByRule(own.game, power as PowerId, input.cause!, input.phase);
        unit = x.unit;
        rule = x.rule;
      } else {
        throw invalid(
          `the house rules' extra-unit rules (seed 002 V(2), V(4)) are Diplomacy's; in a ${g.game.variant} game name the unit ("unit": "F 233")`,
        );
      }
      if (own.kind === "diplomacy") {
        // VIII(2) is for a unit that "has existed for more than one adjudication".
        const phases = own.game.record.phases;
        const at = extraUnitOrigin(own.game, power as PowerId, {
          cause: input.cause,
          unit: input.unit === undefined ? undefined : unit,
          phase: input.phase,
        });
        if (at !== null && at === phases.length - 1) {
          const phase = phases[at]!.phase;
          const name = g.powers.find((p) => p.id === power)?.name ?? power;
          throw new ExtraUnitTooNew(
            `${name}'s extra unit (${unit}) came to be in ${phase}, the last adjudication: it has not existed for more than one adjudication, so seed 002 VIII(2) does not remove it; it is an error of that adjudication, which the GM corrects (VIII(1)): play ${phase} again with the orders it should have had (by mail CORRECT <game> ${name} with a "Reason:" line and the orders; by the API POST /api/games/${gameId}/gm/correct). Once another adjudication is published, it is removed under VIII(2)`,
            power,
            phase,
          );
        }
      }
      const edit: RemoveUnitEdit = { power, unit };
      await this.keepEdit(trx, user, g, "remove-unit", edit, input.reason);
      const audience = own.kind === "family" ? `powers:${power}` : "public";
      await this.emit(trx, gameId, "unit_removed", audience, {
        ...edit,
        reason: input.reason,
        ...(rule ? { rule } : {}),
      });
      return { power, unit, rule };
    });
    return { ...(await this.views.gameView(user, gameId)), removed };
  }

  /**
   * Two units in one province, a unit where an erroneous adjudication put it (seed 002
   * VIII(3)): the GM puts the unit in the province where it should have been (`to`: empty, a
   * place its type may stand, the coast of a fleet where the province has two), or disbands it
   * (`disband`) when that would have been the correct result or another unit rightly stands
   * there. The position model holds one unit per province, so the wrongly placed unit is named
   * where it stands. Diplomacy games; kept in the record's `edits` (`move-unit`, or
   * `remove-unit` for a disband), so the record still replays. Every player is told.
   */
  async relocateUnit(
    user: User,
    gameId: string,
    input: {
      power: string;
      unit: string;
      to?: string | undefined;
      disband?: boolean | undefined;
      reason: string;
    },
  ) {
    const relocated = await this.boardEdit(user, gameId, async (trx, g) => {
      const own = g.own;
      if (own.kind !== "diplomacy")
        throw invalid(
          `relocating a unit (seed 002 VIII(3)) is for Diplomacy games; in a ${g.game.variant} game remove a unit that should not be there (gm/remove-unit)`,
        );
      const power = this.powerIn(g, input.power);
      if ((input.to === undefined) === (input.disband !== true))
        throw invalid(
          'say where the unit should stand ("to": "bur", with the coast of a fleet where the province has two: "spa/sc"), or disband it ("disband": true), not both',
        );
      const variant = own.game.scenario.variant;
      const pos = writePosition(variant, own.game.position);
      const list = pos.units[power] ?? [];
      const wanted = input.unit.trim().replace(/\s+/g, " ").toLowerCase();
      // The unit as the position writes it (`A par`), or its province alone.
      const unit = list.find((x) => {
        const u = x.toLowerCase();
        const at = u.slice(u.indexOf(" ") + 1);
        return u === wanted || at === wanted || at.split("/")[0] === wanted;
      });
      if (!unit)
        throw invalid(
          `${power} has no unit "${input.unit}"; its units: ${list.join(", ") || "none"}`,
        );
      let to: string | null = null;
      if (input.to !== undefined) {
        to = `${unit.split(" ")[0]} ${input.to.trim().toLowerCase()}`;
        const where = (u: string) => (u.split(" ")[1] ?? "").split("/")[0];
        if (where(to) === where(unit))
          throw invalid(
            `${unit} already stands in ${where(unit)}: name the province it should be in`,
          );
        try {
          readPosition(
            applyEdits(pos, [{ power, unit, to }]) as unknown as Record<string, unknown>,
            variant,
          );
        } catch (e) {
          if (!(e instanceof PositionError)) throw e;
          const other = /^two units in /.test(e.message);
          throw invalid(
            other
              ? `${e.message}: another unit stands in ${where(to)}; if it rightly stands there, disband ${unit} instead ("disband": true, seed 002 VIII(3))`
              : `${unit} cannot be put there: ${e.message}`,
          );
        }
      }
      const edit: RemoveUnitEdit | MoveUnitEdit =
        to === null ? { power, unit } : { power, unit, to };
      await this.keepEdit(
        trx,
        user,
        g,
        to === null ? "remove-unit" : "move-unit",
        edit,
        input.reason,
      );
      await this.emit(trx, gameId, "unit_relocated", "public", {
        power,
        unit,
        to,
        reason: input.reason,
      });
      return { power, unit, to };
    });
    return { ...(await this.views.gameView(user, gameId)), relocated };
  }

  /** The GM's edit of the board, in the game's lock; refused to others and once the game is over. */
  private boardEdit<T>(
    user: User,
    gameId: string,
    edit: (trx: Tx, g: PlayedGame) => Promise<T>,
  ): Promise<T> {
    return this.mutatePlayed(gameId, async (trx, g) => {
      this.requireGm(g, user);
      if (g.state.state === "done") throw conflict("the game is over");
      return edit(trx, g);
    });
  }

  /** The power the GM named, by its id or name, or a refusal listing the game's powers. */
  private powerIn(g: PlayedGame, name: string): string {
    const power = powerNamed(g.powers, name);
    if (power === undefined)
      throw invalid(
        `unknown power "${name}"; the powers are ${g.powers.map((p) => p.name).join(", ")}`,
      );
    return power;
  }

  /** Keeps an edit of the board in the record, after the phases adjudicated so far. */
  private async keepEdit(
    trx: Tx,
    user: User,
    g: PlayedGame,
    kind: "remove-unit" | "move-unit",
    edit: RemoveUnitEdit | MoveUnitEdit,
    reason: string,
  ): Promise<void> {
    const own = g.own;
    await trx
      .insertInto("edits")
      .values({
        game_id: g.game.id,
        after_idx: own.kind === "diplomacy" ? own.game.record.phases.length : own.game.turns.length,
        kind,
        data: JSON.stringify(edit),
        reason,
        user_id: user.id,
        at: this.now(),
      })
      .execute();
  }
}
