import type { Kysely } from "kysely";
import type { DB } from "../store/schema.ts";

/*
 * Each power's last order set on file for a phase: the one read that every revision stays
 * on file for (a player may revise hundreds of times, a client in a loop thousands). Each
 * power's row is found by its own index seek (`submissions_last`: game, phase index, phase,
 * power, id; migration 0010), newest first, one row read per power: the work does not grow
 * with the phase's revisions (docs/performance.md, "Long phases"). A `max(id) ... group by
 * power` over the phase read every revision's index entry (and on SQLite every row, for the
 * phase's name), which made a submission in a long phase cost ever more (the soak,
 * docs/reliability.md).
 */

/** The columns of a stored order set that readers use. */
const COLUMNS = [
  "id",
  "power",
  "orders",
  "final",
  "received_at",
  "user_id",
  "diagnostics",
] as const;

export interface LatestQuery {
  readonly gameId: string;
  readonly phaseIdx: number;
  /** The phase's name: a set sent for a phase a correction took away does not count. */
  readonly phase: string;
  /** The powers asked about (a set for any other is not read). */
  readonly powers: readonly string[];
}

/** Each asked power's last set for the phase, in the order they were sent (oldest first). */
export async function latestSetRows(db: Kysely<DB>, q: LatestQuery) {
  const powers = [...new Set(q.powers)];
  if (powers.length === 0) return [];
  return db
    .selectFrom("submissions")
    .select(COLUMNS)
    .where(
      "id",
      "in",
      powers.map((power) =>
        db
          .selectFrom("submissions")
          .select("id")
          .where("game_id", "=", q.gameId)
          .where("phase_idx", "=", q.phaseIdx)
          .where("phase", "=", q.phase)
          .where("power", "=", power)
          .orderBy("id", "desc")
          .limit(1),
      ),
    )
    .orderBy("id")
    .execute();
}
