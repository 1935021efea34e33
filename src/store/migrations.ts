import type { MigrationProvider } from "kysely";
import { initial } from "./migrations/0001-initial.ts";
import {
  committee,
  labelsAndNotices,
  mail,
  pressByGame,
  proposalNumbers,
  sequential,
} from "./migrations/0002-0007.ts";
import {
  botSeats,
  chairTimers,
  daideSeats,
  healthProbe,
  heldPress,
  listUnsubscribe,
  longPhases,
  webNotices,
} from "./migrations/0008-0015.ts";
import type { Dialect } from "./migrations/columns.ts";

/*
 * Migrations, in order: the list of them, each in migrations/ (0001-initial.ts, 0002-0007.ts,
 * 0008-0015.ts). Never edit one that has shipped: add the next. Each is written once for both
 * databases; the few differences (auto-increment keys) go through `idColumn`
 * (migrations/columns.ts).
 */

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
