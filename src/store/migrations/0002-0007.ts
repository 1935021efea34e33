import { type Migration, sql } from "kysely";
import { type AnyDb, type Dialect, idColumn } from "./columns.ts";

/*
 * Migrations 0002 to 0007: mail, sequential movement, the committee, press by game, labels
 * and notices, proposal numbers. Never edit one that has shipped: add the next.
 */

/**
 * Play by email (docs/email.md): players' mail addresses and secrets, each game's mail
 * abbreviation and address with the mailer's progress, the outbox, and order sets sent early
 * for a later retreat or adjustment phase (seed 002 II(5)).
 */
export function mail(dialect: Dialect): Migration {
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
export function sequential(dialect: Dialect): Migration {
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
export function committee(dialect: Dialect): Migration {
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
export function pressByGame(): Migration {
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
export function labelsAndNotices(): Migration {
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
export function proposalNumbers(): Migration {
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
