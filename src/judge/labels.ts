import type { Kysely } from "kysely";
import type { DB } from "../store/schema.ts";
import { conflict, invalid } from "./errors.ts";

/*
 * A game's id as its players know it (seed 004 §9: `GD001` on every report and in every
 * EMGTURN mail; seed 002: `SED` in every subject). Its GM chooses it when creating the game
 * (POST /api/games `label`, the mail command `CREATE <ABBR>`), or when setting the game up for
 * mail (its abbreviation); it is unique on the judge, and a game played by mail is named by
 * it in every mail. A game without one is named by its judge id.
 */

/** Words that start the judge's own mail subjects: no game may be named by one. */
const COMMAND_WORDS =
  /^(?:RE|FW|FWD|EMGTURN|EMGREPORT|HELP|REGISTER|JOIN|CREATE|START|PAUSE|RESUME|EXTEND|PROCESS|REPLACE|CORRECT|REMOVE|RELOCATE|WARN|DRAW|REFUSE|NOTICES)$/;

/** A game id as given, checked and in upper case; or a 400 saying what one looks like. */
export function checkLabel(raw: string, what = "a game's id"): string {
  const label = raw.trim().toUpperCase();
  if (!/^[A-Z0-9][A-Z0-9_-]{0,11}$/.test(label)) {
    throw invalid(
      `${what} is 1 to 12 letters or digits (like GD001 or SED; "-" and "_" after the first), not "${raw}"`,
    );
  }
  if (COMMAND_WORDS.test(label)) {
    throw invalid(`"${label}" would be confused with a mail command; choose another`);
  }
  return label;
}

/** Refuses a game id another game already has (its label, or its mail abbreviation). */
export async function labelFree(db: Kysely<DB>, label: string, gameId: string | null) {
  const game = await db
    .selectFrom("games")
    .select("id")
    .where("label", "=", label)
    .executeTakeFirst();
  const mail = await db
    .selectFrom("mail_games")
    .select("game_id as id")
    .where("abbr", "=", label)
    .executeTakeFirst();
  const other = [game, mail].find((r) => r !== undefined && r.id !== gameId);
  if (other) throw conflict(`another game already has the id ${label}; choose another`);
}

/** What a game is called in its reports and mail: its label, or its judge id. */
export function gameLabel(game: { readonly id: string; readonly label: string | null }): string {
  return game.label ?? game.id;
}
