import type { PowerId } from "../engine/types.ts";
import type { Role } from "../store/schema.ts";

/*
 * Who asks a room (User, Viewer, and RuleViewer: as much of a viewer as a game's own rules
 * need) and how a room writes an event (Emit). A leaf: it imports no module of the judge, so
 * the rules' modules (committee.ts, schedule.ts) take these without reaching types.ts, which
 * imports them (types.ts re-exports these).
 */

export interface User {
  readonly id: string;
  readonly name: string;
}

export interface Viewer {
  readonly user: User | null;
  readonly role: Role | null;
  readonly seat: number | null;
  readonly powers: readonly PowerId[];
}

/**
 * Who is asking, as far as a game's own rules need it (the committee, sequential movement):
 * a Viewer is one.
 */
export type RuleViewer = Pick<Viewer, "user" | "role" | "powers">;

/** Writes an event (the judge's `emit` for one game). */
export type Emit = (kind: string, audience: string, data: unknown) => Promise<void>;
