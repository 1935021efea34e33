import { type Migration, sql } from "kysely";
import { type AnyDb, type Dialect, idColumn } from "./columns.ts";

/*
 * Migrations 0008 to 0015: web games' notices, list-unsubscribe, long phases, the health
 * probe, chair timers, held press, bot seats, DAIDE seats. Never edit one that has shipped:
 * add the next.
 */

/**
 * The judge's own mail for games not set up for mail (src/mail/notify.ts): each game's last
 * event mailed and last phase reminded, as `mail_games` keeps them for mail games. The games
 * already there begin at their last event: mail is for what happens from now on.
 */
export function webNotices(): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable("notice_games")
        .addColumn("game_id", "text", (c) => c.primaryKey().references("games.id"))
        .addColumn("last_event", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("reminded_idx", "integer", (c) => c.notNull().defaultTo(-1))
        .execute();
      await sql`insert into notice_games (game_id, last_event, reminded_idx)
        select games.id, coalesce((select max(events.id) from events where events.game_id = games.id), 0), -1
        from games where games.id not in (select game_id from mail_games)`.execute(db);
    },
    async down(db: AnyDb) {
      await db.schema.dropTable("notice_games").execute();
    },
  };
}

/**
 * The List-Unsubscribe headers of the judge's own mail (docs/email.md): the outbox keeps each
 * mail's (JSON, as nodemailer's `list.unsubscribe` takes it), and `judge_keys` the key the
 * one-click unsubscribe links are signed with, made once by the first process that needs it.
 */
export function listUnsubscribe(): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema.alterTable("outbox").addColumn("list_unsubscribe", "text").execute();
      await db.schema
        .createTable("judge_keys")
        .addColumn("name", "text", (c) => c.primaryKey())
        .addColumn("value", "text", (c) => c.notNull())
        .execute();
    },
    async down(db: AnyDb) {
      await db.schema.dropTable("judge_keys").execute();
      await db.schema.alterTable("outbox").dropColumn("list_unsubscribe").execute();
    },
  };
}

/**
 * Long phases (issue 21, the soak): each power's last order set is found by an index seek
 * (`submissions_last`: game, phase index, phase name, power, id; src/judge/latest.ts), not by
 * reading every revision of the phase, as `submissions_by_phase` (without the phase's name)
 * made SQLite do; it replaces that index, whose every use it serves. `submissions_by_user`
 * serves the scheduler's questions about a player (src/judge/missed.ts: has the player sent
 * orders since missing a phase; the last phase they sent any), asked each tick while a
 * contact window is open, without reading the game's revisions. `events_by_kind` finds a
 * game's events of one kind (the chair's mode, draw warnings, replacements suggested, refusal
 * reasons) by a seek, not by reading every event of the game, press included.
 */
export function longPhases(): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema
        .createIndex("submissions_last")
        .on("submissions")
        .columns(["game_id", "phase_idx", "phase", "power", "id"])
        .execute();
      await db.schema
        .createIndex("submissions_by_user")
        .on("submissions")
        .columns(["game_id", "user_id", "phase_idx"])
        .execute();
      await db.schema.dropIndex("submissions_by_phase").execute();
      await db.schema
        .createIndex("events_by_kind")
        .on("events")
        .columns(["game_id", "kind", "id"])
        .execute();
    },
    async down(db: AnyDb) {
      await db.schema.dropIndex("events_by_kind").execute();
      await db.schema
        .createIndex("submissions_by_phase")
        .on("submissions")
        .columns(["game_id", "phase_idx", "power", "id"])
        .execute();
      await db.schema.dropIndex("submissions_by_user").execute();
      await db.schema.dropIndex("submissions_last").execute();
    },
  };
}

/**
 * One row the server's readiness probe writes (src/server/readiness.ts): a real write, with a
 * commit that reaches the disk, every few seconds, so that a full disk or a read-only file
 * is seen before a player's orders meet it.
 */
export function healthProbe(): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable("health_probe")
        .addColumn("id", "integer", (c) => c.primaryKey())
        .addColumn("at", "bigint", (c) => c.notNull())
        .execute();
    },
    async down(db: AnyDb) {
      await db.schema.dropTable("health_probe").execute();
    },
  };
}

/**
 * The chairs' timers (seed 000; src/judge/chair.ts): one row per chaired game, the timer's
 * state as JSON, the instant a running timer ends (the scheduler's seek: `ends_at` reached and
 * not yet `told`), and whether its end has been announced.
 */
export function chairTimers(): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable("chair_timers")
        .addColumn("game_id", "text", (c) => c.primaryKey().references("games.id"))
        .addColumn("data", "text", (c) => c.notNull())
        .addColumn("ends_at", "bigint")
        .addColumn("told", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("updated_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("chair_timers_due")
        .on("chair_timers")
        .columns(["told", "ends_at"])
        .execute();
    },
    async down(db: AnyDb) {
      await db.schema.dropTable("chair_timers").execute();
    },
  };
}

/**
 * Press held for the GM's review (seed 002 X(1), the game option `press.review`;
 * src/judge/press.ts): a player's message kept here, not in `press`, until the GM approves it
 * (then it is written to `press` as it was sent, its `at` kept, `press_id` naming that row)
 * or refuses it with a reason. `n` numbers a game's held messages 1, 2, 3 ... (what the GM
 * names in APPROVE/REFUSE); `status` is held, approved or refused.
 */
export function heldPress(dialect: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      await idColumn(dialect, db.schema.createTable("held_press"))
        .addColumn("game_id", "text", (c) => c.notNull().references("games.id"))
        .addColumn("n", "integer", (c) => c.notNull())
        .addColumn("phase_idx", "integer", (c) => c.notNull())
        .addColumn("phase", "text", (c) => c.notNull())
        .addColumn("author_user", "text", (c) => c.notNull())
        .addColumn("author_power", "text")
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("recipients", "text", (c) => c.notNull())
        .addColumn("body", "text", (c) => c.notNull())
        .addColumn("at", "bigint", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("reason", "text")
        .addColumn("decided_at", "bigint")
        .addColumn("press_id", "bigint")
        .addUniqueConstraint("held_press_game_n", ["game_id", "n"])
        .execute();
    },
    async down(db: AnyDb) {
      await db.schema.dropTable("held_press").execute();
    },
  };
}

/**
 * Seats played by the judge's built-in players (src/judge/bots.ts, src/bots): one row per
 * seat, chosen by the GM or taken over after missed orders (the game option botTakeover);
 * `played_idx` is the last phase index the bot has sent orders for, so that every open phase
 * gets its bot orders once, after a restart too. The orders themselves are `submissions`.
 */
export function botSeats(): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable("bot_seats")
        .addColumn("game_id", "text", (c) => c.notNull().references("games.id"))
        .addColumn("seat", "integer", (c) => c.notNull())
        .addColumn("bot", "text", (c) => c.notNull())
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("played_idx", "integer", (c) => c.notNull().defaultTo(-1))
        .addColumn("since", "text")
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("bot_seats_pk", ["game_id", "seat"])
        .execute();
    },
    async down(db: AnyDb) {
      await db.schema.dropTable("bot_seats").execute();
    },
  };
}

/**
 * Seats kept for DAIDE clients in a judge's game (`entente serve --daide-ports`;
 * src/judge/daide.ts, src/server/daide-games.ts): `daide_games` names a game's port while the
 * game is forming or running (null once it is over: the port is free again); `daide_seats`
 * one row per seat kept for a client, its client's name and version once one has sent NME
 * and the passcode it comes back with (IAM). Its orders are `submissions` whose `user_id` is
 * `daide:<seat>`.
 */
export function daideSeats(): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable("daide_games")
        .addColumn("game_id", "text", (c) => c.primaryKey().references("games.id"))
        .addColumn("port", "integer", (c) => c.unique())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("daide_seats")
        .addColumn("game_id", "text", (c) => c.notNull().references("games.id"))
        .addColumn("seat", "integer", (c) => c.notNull())
        .addColumn("client", "text")
        .addColumn("version", "text")
        .addColumn("passcode", "integer", (c) => c.notNull())
        .addColumn("since", "text")
        .addPrimaryKeyConstraint("daide_seats_pk", ["game_id", "seat"])
        .execute();
    },
    async down(db: AnyDb) {
      await db.schema.dropTable("daide_seats").execute();
      await db.schema.dropTable("daide_games").execute();
    },
  };
}
