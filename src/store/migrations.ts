import {
  type CreateTableBuilder,
  type Kysely,
  type Migration,
  type MigrationProvider,
  sql,
} from "kysely";

/*
 * Migrations, in order. Never edit one that has shipped: add the next. Each is written once
 * for both databases; the few differences (auto-increment keys) go through `idColumn`.
 */

export type Dialect = "sqlite" | "postgres";

// biome-ignore lint/suspicious/noExplicitAny: Kysely's migration API is typed over an unknown schema
type AnyDb = Kysely<any>;

function idColumn<T extends string>(dialect: Dialect, t: CreateTableBuilder<T, never>) {
  return dialect === "postgres"
    ? t.addColumn("id", "bigserial", (c) => c.primaryKey())
    : t.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement());
}

function initial(dialect: Dialect): Migration {
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

/**
 * Play by email (docs/email.md): players' mail addresses and secrets, each game's mail
 * abbreviation and address with the mailer's progress, the outbox, and order sets sent early
 * for a later retreat or adjustment phase (seed 002 II(5)).
 */
function mail(dialect: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable("mail_users")
        .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id"))
        .addColumn("address", "text", (c) => c.notNull())
        .addColumn("secret", "text", (c) => c.notNull())
        .addColumn("updated_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("mail_users_address")
        .on("mail_users")
        .column("address")
        .execute();
      await db.schema
        .createTable("mail_games")
        .addColumn("game_id", "text", (c) => c.primaryKey().references("games.id"))
        .addColumn("abbr", "text", (c) => c.notNull().unique())
        .addColumn("address", "text", (c) => c.notNull())
        .addColumn("last_event", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("reminded_idx", "integer", (c) => c.notNull().defaultTo(-1))
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .execute();
      await idColumn(dialect, db.schema.createTable("outbox"))
        .addColumn("game_id", "text")
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("from_addr", "text", (c) => c.notNull())
        .addColumn("to_addr", "text", (c) => c.notNull())
        .addColumn("subject", "text", (c) => c.notNull())
        .addColumn("body", "text", (c) => c.notNull())
        .addColumn("in_reply_to", "text")
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("sent_at", "bigint")
        .addColumn("error", "text")
        .execute();
      await db.schema
        .createIndex("outbox_by_game")
        .on("outbox")
        .columns(["game_id", "id"])
        .execute();
      await idColumn(dialect, db.schema.createTable("early_orders"))
        .addColumn("game_id", "text", (c) => c.notNull().references("games.id"))
        .addColumn("power", "text", (c) => c.notNull())
        .addColumn("phase", "text", (c) => c.notNull())
        .addColumn("orders", "text", (c) => c.notNull())
        .addColumn("user_id", "text", (c) => c.notNull())
        .addColumn("received_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("early_orders_by_game")
        .on("early_orders")
        .columns(["game_id", "id"])
        .execute();
    },
    async down(db: AnyDb) {
      for (const t of ["early_orders", "outbox", "mail_games", "mail_users"]) {
        await db.schema.dropTable(t).execute();
      }
    },
  };
}

/** Sequential movement (docs/sequential.md): the GM's schedules, contract declarations. */
function sequential(dialect: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable("schedules")
        .addColumn("game_id", "text", (c) => c.notNull().references("games.id"))
        .addColumn("season", "text", (c) => c.notNull())
        .addColumn("schedule", "text", (c) => c.notNull())
        .addColumn("set_by", "text", (c) => c.notNull())
        .addColumn("set_at", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("schedules_pk", ["game_id", "season"])
        .execute();
      await idColumn(dialect, db.schema.createTable("contracts"))
        .addColumn("game_id", "text", (c) => c.notNull().references("games.id"))
        .addColumn("power", "text", (c) => c.notNull())
        .addColumn("partner", "text", (c) => c.notNull())
        .addColumn("from_season", "text", (c) => c.notNull())
        .addColumn("until_season", "text")
        .addColumn("withdrawn_from", "text")
        .addColumn("declared_by", "text", (c) => c.notNull())
        .addColumn("declared_at", "bigint", (c) => c.notNull())
        .addColumn("withdrawn_at", "bigint")
        .execute();
      await db.schema
        .createIndex("contracts_by_game")
        .on("contracts")
        .columns(["game_id", "id"])
        .execute();
    },
    async down(db: AnyDb) {
      for (const t of ["contracts", "schedules"]) await db.schema.dropTable(t).execute();
    },
  };
}

/**
 * The europe1935 committee (docs/committee.md): the chairs' and powers' acts (political goals,
 * conferences), each with the number of phases adjudicated when it was done.
 */
function committee(dialect: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      await idColumn(dialect, db.schema.createTable("committee_acts"))
        .addColumn("game_id", "text", (c) => c.notNull().references("games.id"))
        .addColumn("after_idx", "integer", (c) => c.notNull())
        .addColumn("data", "text", (c) => c.notNull())
        .addColumn("user_id", "text", (c) => c.notNull())
        .addColumn("at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("committee_acts_by_game")
        .on("committee_acts")
        .columns(["game_id", "id"])
        .execute();
    },
    async down(db: AnyDb) {
      await db.schema.dropTable("committee_acts").execute();
    },
  };
}

/**
 * Press read per viewer (src/judge/numbering.ts): a page or a count of a game's press is one
 * query on this index, as events_by_game serves the events.
 */
function pressByGame(): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema.createIndex("press_by_game").on("press").columns(["game_id", "id"]).execute();
    },
    async down(db: AnyDb) {
      await db.schema.dropIndex("press_by_game").execute();
    },
  };
}

/**
 * A game's id as its players know it (`GD001`, seed 004 §9: chosen by its GM, unique; the
 * mail abbreviation of a mail game, which it is filled from), and who wants the judge's own
 * mail: per account (`mail_users.notices`) and per seat (`members.notices`), 1 yes, 0 no.
 */
function labelsAndNotices(): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema.alterTable("games").addColumn("label", "text").execute();
      await sql`update games set label = (select abbr from mail_games where mail_games.game_id = games.id)`.execute(
        db,
      );
      await db.schema.createIndex("games_label").on("games").column("label").unique().execute();
      await db.schema
        .alterTable("mail_users")
        .addColumn("notices", "integer", (c) => c.notNull().defaultTo(1))
        .execute();
      await db.schema
        .alterTable("members")
        .addColumn("notices", "integer", (c) => c.notNull().defaultTo(1))
        .execute();
    },
    async down(db: AnyDb) {
      await db.schema.alterTable("members").dropColumn("notices").execute();
      await db.schema.alterTable("mail_users").dropColumn("notices").execute();
      await db.schema.dropIndex("games_label").execute();
      await db.schema.alterTable("games").dropColumn("label").execute();
    },
  };
}

/**
 * Proposals numbered per game (`proposals.num`: 1, 2, 3 in each game), the number players,
 * the GM, the API, mail and events know a proposal by; the row id, one sequence over every
 * game, would tell how many proposals other games made. Existing proposals are numbered in
 * the order they were made, and the events that name one (`proposal`, `vote_result`,
 * `proposal_refused`, `proposal_refused_reason`) are rewritten to name it by its number.
 */
function proposalNumbers(): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema
        .alterTable("proposals")
        .addColumn("num", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
      await sql`update proposals set num = (select count(*) from proposals p where p.game_id = proposals.game_id and p.id <= proposals.id)`.execute(
        db,
      );
      await db.schema
        .createIndex("proposals_by_number")
        .on("proposals")
        .columns(["game_id", "num"])
        .unique()
        .execute();
      await renumberProposalEvents(db, true);
    },
    async down(db: AnyDb) {
      await renumberProposalEvents(db, false);
      await db.schema.dropIndex("proposals_by_number").execute();
      await db.schema.alterTable("proposals").dropColumn("num").execute();
    },
  };
}

/**
 * The judge's own mail for games not set up for mail (src/mail/notify.ts): each game's last
 * event mailed and last phase reminded, as `mail_games` keeps them for mail games. The games
 * already there begin at their last event: mail is for what happens from now on.
 */
function webNotices(): Migration {
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
function listUnsubscribe(): Migration {
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
function longPhases(): Migration {
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
 * The events naming a proposal (`data.id`) rewritten: from its row id to its number in the
 * game (`toNumbers`), or back.
 */
async function renumberProposalEvents(db: AnyDb, toNumbers: boolean): Promise<void> {
  const proposals: { id: number | string; game_id: string; num: number | string }[] = await db
    .selectFrom("proposals")
    .select(["id", "game_id", "num"])
    .execute();
  if (proposals.length === 0) return;
  const byGame = new Map<string, Map<number, number>>();
  for (const p of proposals) {
    const [from, to] = toNumbers ? [Number(p.id), Number(p.num)] : [Number(p.num), Number(p.id)];
    const m = byGame.get(p.game_id) ?? new Map<number, number>();
    m.set(from, to);
    byGame.set(p.game_id, m);
  }
  const events: { id: number | string; game_id: string; data: string }[] = await db
    .selectFrom("events")
    .select(["id", "game_id", "data"])
    .where("kind", "in", ["proposal", "vote_result", "proposal_refused", "proposal_refused_reason"])
    .execute();
  for (const e of events) {
    const data = JSON.parse(e.data) as Record<string, unknown>;
    const n = typeof data.id === "number" ? byGame.get(e.game_id)?.get(data.id) : undefined;
    if (n === undefined || n === data.id) continue;
    await db
      .updateTable("events")
      .set({ data: JSON.stringify({ ...data, id: n }) })
      .where("id", "=", e.id)
      .execute();
  }
}

/**
 * One row the server's readiness probe writes (src/server/readiness.ts): a real write, with a
 * commit that reaches the disk, every few seconds, so that a full disk or a read-only file
 * is seen before a player's orders meet it.
 */
function healthProbe(): Migration {
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
function chairTimers(): Migration {
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
function heldPress(dialect: Dialect): Migration {
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
function botSeats(): Migration {
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
function daideSeats(): Migration {
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

/** The migrations for a dialect, keyed by name (applied in name order). */
export function migrationProvider(dialect: Dialect): MigrationProvider {
  return {
    async getMigrations() {
      return {
        "0001_initial": initial(dialect),
        "0002_mail": mail(dialect),
        "0003_sequential": sequential(dialect),
        "0004_committee": committee(dialect),
        "0005_press_by_game": pressByGame(),
        "0006_labels_notices": labelsAndNotices(),
        "0007_proposal_numbers": proposalNumbers(),
        "0008_notice_games": webNotices(),
        "0009_list_unsubscribe": listUnsubscribe(),
        "0010_long_phases": longPhases(),
        "0011_health_probe": healthProbe(),
        "0012_chair_timers": chairTimers(),
        "0013_held_press": heldPress(dialect),
        "0014_bot_seats": botSeats(),
        "0015_daide_seats": daideSeats(),
      };
    },
  };
}
