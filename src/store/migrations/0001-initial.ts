import { type Migration, sql } from "kysely";
import { type AnyDb, type Dialect, idColumn } from "./columns.ts";

/*
 * Migration 0001: the first schema: users, tokens, games, phase_state, phases, members,
 * invites, submissions, nmrs, proposals, ballots, press, events, edits. Never edit it: add the
 * next.
 */

export function initial(dialect: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable("users")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("name", "text", (c) => c.notNull().unique())
        .addColumn("password_hash", "text", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("tokens")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("user_id", "text", (c) => c.notNull().references("users.id"))
        .addColumn("token_hash", "text", (c) => c.notNull().unique())
        .addColumn("label", "text", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("last_used_at", "bigint")
        .execute();
      await db.schema
        .createTable("games")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("variant", "text", (c) => c.notNull())
        .addColumn("scenario", "text", (c) => c.notNull())
        .addColumn("options", "text", (c) => c.notNull())
        .addColumn("record_head", "text", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("result", "text")
        .addColumn("created_by", "text", (c) => c.notNull().references("users.id"))
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("phase_state")
        .addColumn("game_id", "text", (c) => c.primaryKey().references("games.id"))
        .addColumn("phase_idx", "integer", (c) => c.notNull())
        .addColumn("phase", "text", (c) => c.notNull())
        .addColumn("state", "text", (c) => c.notNull())
        .addColumn("deadline_at", "bigint")
        .addColumn("remaining_ms", "bigint")
        .addColumn("ready", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("version", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("updated_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("phase_state_due")
        .on("phase_state")
        .columns(["state", "deadline_at"])
        .execute();
      await idColumn(dialect, db.schema.createTable("phases"))
        .addColumn("game_id", "text", (c) => c.notNull().references("games.id"))
        .addColumn("idx", "integer", (c) => c.notNull())
        .addColumn("phase", "text", (c) => c.notNull())
        .addColumn("record", "text", (c) => c.notNull())
        .addColumn("superseded", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("adjudicated_at", "bigint", (c) => c.notNull())
        .execute();
      // The guarantee behind "adjudicated exactly once": one current row per phase.
      await db.schema
        .createIndex("phases_one_current")
        .on("phases")
        .columns(["game_id", "idx"])
        .unique()
        .where(sql.ref("superseded"), "=", 0)
        .execute();
      await db.schema
        .createTable("members")
        .addColumn("game_id", "text", (c) => c.notNull().references("games.id"))
        .addColumn("user_id", "text", (c) => c.notNull().references("users.id"))
        .addColumn("role", "text", (c) => c.notNull())
        .addColumn("seat", "integer")
        .addColumn("joined_at", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("members_pk", ["game_id", "user_id"])
        .execute();
      await db.schema
        .createIndex("members_one_per_seat")
        .on("members")
        .columns(["game_id", "seat"])
        .unique()
        .where("seat", "is not", null)
        .execute();
      await db.schema
        .createTable("invites")
        .addColumn("code", "text", (c) => c.primaryKey())
        .addColumn("game_id", "text", (c) => c.notNull().references("games.id"))
        .addColumn("role", "text", (c) => c.notNull())
        .addColumn("seat", "integer")
        .addColumn("created_by", "text", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("revoked", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
      await idColumn(dialect, db.schema.createTable("submissions"))
        .addColumn("game_id", "text", (c) => c.notNull().references("games.id"))
        .addColumn("phase_idx", "integer", (c) => c.notNull())
        .addColumn("phase", "text", (c) => c.notNull())
        .addColumn("power", "text", (c) => c.notNull())
        .addColumn("user_id", "text", (c) => c.notNull())
        .addColumn("orders", "text", (c) => c.notNull())
        .addColumn("final", "integer", (c) => c.notNull())
        .addColumn("diagnostics", "text", (c) => c.notNull())
        .addColumn("received_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("submissions_by_phase")
        .on("submissions")
        .columns(["game_id", "phase_idx", "power", "id"])
        .execute();
      await idColumn(dialect, db.schema.createTable("nmrs"))
        .addColumn("game_id", "text", (c) => c.notNull().references("games.id"))
        .addColumn("phase_idx", "integer", (c) => c.notNull())
        .addColumn("phase", "text", (c) => c.notNull())
        .addColumn("power", "text", (c) => c.notNull())
        .addColumn("seat", "integer")
        .addColumn("user_id", "text")
        .addColumn("at", "bigint", (c) => c.notNull())
        .execute();
      await idColumn(dialect, db.schema.createTable("proposals"))
        .addColumn("game_id", "text", (c) => c.notNull().references("games.id"))
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("powers", "text")
        .addColumn("text", "text", (c) => c.notNull())
        .addColumn("options", "text")
        .addColumn("proposer_user", "text", (c) => c.notNull())
        .addColumn("proposer_seat", "integer")
        .addColumn("due_idx", "integer", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("counts", "text")
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("closed_at", "bigint")
        .execute();
      await db.schema
        .createTable("ballots")
        .addColumn("proposal_id", "bigint", (c) => c.notNull().references("proposals.id"))
        .addColumn("voter", "text", (c) => c.notNull())
        .addColumn("vote", "text", (c) => c.notNull())
        .addColumn("user_id", "text", (c) => c.notNull())
        .addColumn("at", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("ballots_pk", ["proposal_id", "voter"])
        .execute();
      await idColumn(dialect, db.schema.createTable("press"))
        .addColumn("game_id", "text", (c) => c.notNull().references("games.id"))
        .addColumn("phase_idx", "integer", (c) => c.notNull())
        .addColumn("phase", "text", (c) => c.notNull())
        .addColumn("author_user", "text", (c) => c.notNull())
        .addColumn("author_power", "text")
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("recipients", "text", (c) => c.notNull())
        .addColumn("body", "text", (c) => c.notNull())
        .addColumn("at", "bigint", (c) => c.notNull())
        .execute();
      await idColumn(dialect, db.schema.createTable("events"))
        .addColumn("game_id", "text", (c) => c.notNull().references("games.id"))
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("audience", "text", (c) => c.notNull())
        .addColumn("data", "text", (c) => c.notNull())
        .addColumn("at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("events_by_game")
        .on("events")
        .columns(["game_id", "id"])
        .execute();
      await idColumn(dialect, db.schema.createTable("edits"))
        .addColumn("game_id", "text", (c) => c.notNull().references("games.id"))
        .addColumn("after_idx", "integer", (c) => c.notNull())
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("data", "text", (c) => c.notNull())
        .addColumn("reason", "text", (c) => c.notNull())
        .addColumn("user_id", "text", (c) => c.notNull())
        .addColumn("at", "bigint", (c) => c.notNull())
        .execute();
    },
    async down(db: AnyDb) {
      for (const t of [
        "edits",
        "events",
        "press",
        "ballots",
        "proposals",
        "nmrs",
        "submissions",
        "invites",
        "members",
        "phases",
        "phase_state",
        "games",
        "tokens",
        "users",
      ]) {
        await db.schema.dropTable(t).execute();
      }
    },
  };
}
