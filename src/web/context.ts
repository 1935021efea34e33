import type { BoardPosition, DrawnOrder } from "../render/types.ts";
import { gameEvents, get } from "./api.ts";
import type { TabPanel } from "./dom.ts";
import type { GameParts } from "./parts.ts";
import type { GameView, Report } from "./types.ts";

/*
 * What the game page gives its parts (the tabs, the report card; game.ts builds it): the
 * game's context, what a tab is, the viewer's report card; and what the game page and the
 * chair's pages both use: a variant's powers and the game's live updates.
 */

export interface PowerInfo {
  id: string;
  name: string;
  adjective: string;
  /** Other names of the power a header may use (`UK`, `Soviet Union`). */
  aliases?: string[];
}

export async function powersOf(variant: string): Promise<PowerInfo[]> {
  const r = await get<{ powers: PowerInfo[] }>(
    `/api/variants/${encodeURIComponent(variant)}/start`,
  );
  return r.powers;
}

/** A tab of the game page; a click on the map goes to the tab shown. */
export interface Panel extends TabPanel {
  onProvince?(p: string): void;
  /** A mark the tab carries (the press's unread count), and how to bring it up to date. */
  readonly badge?: { readonly el: HTMLElement; refresh(): Promise<void> };
}

/** What every part of the page shares: the game, its parts, the map, the report. */
export interface GameCtx {
  readonly id: string;
  /** `/api/games/ID` */
  readonly base: string;
  readonly parts: GameParts;
  view(): GameView;
  /** A power's name as this game writes it. */
  name(p: string): string;
  /** Draws a position on the map (if the game has one), framed as the parts say. */
  draw(
    position: BoardPosition,
    orders?: DrawnOrder[],
    selected?: string[],
    targets?: string[],
  ): Promise<void>;
  /** The viewer's report, where the game has reports. */
  readonly report: ReportCard | null;
  /** Reads the view again and shows it. */
  reload(): Promise<void>;
}

/** The viewer's report card (report.ts), where the game has reports. */
export interface ReportCard {
  readonly el: HTMLElement;
  /** The latest report of the viewer's own power, once loaded (for its possible commands). */
  latest(): Report | null;
  /** Reads the report again, the latest turn's once a new turn was adjudicated. */
  refresh(): Promise<void>;
}

/**
 * Server-sent events of the game: reload on anything that changes the board or phase. The
 * stream starts after the events already on file when it opens; `caughtUp`, run once they are
 * read, lets the page catch what happened between its first read and then.
 */
export function liveUpdates(
  id: string,
  reload: () => Promise<void>,
  caughtUp?: () => Promise<void>,
  onEvent?: (kind: string, data: Record<string, unknown>) => void,
): void {
  const kinds = [
    "phase_resolved",
    "phase_corrected",
    "started",
    "deadline",
    "paused",
    "resumed",
    "game_over",
    "joined",
    "chair_mode",
    "press",
    "proposal",
    "vote_result",
    "proposal_refused",
    // Press held for the GM's review: the GM's list, and its author's (seed 002 X(1)).
    "press_held",
    "press_approved",
    "press_refused",
    "unit_removed",
    "unit_relocated",
    // A seat changing hands: the seats, the header, and the notice to who lost it.
    "civil_disorder",
    "player_replaced",
  ];
  void (async () => {
    const es = await gameEvents(id, () => void caughtUp?.().catch(() => undefined));
    let pending: ReturnType<typeof setTimeout> | null = null;
    for (const k of kinds) {
      es.addEventListener(k, (e) => {
        if (onEvent) {
          try {
            const ev = JSON.parse((e as MessageEvent<string>).data) as {
              data?: Record<string, unknown>;
            };
            onEvent(k, ev.data ?? {});
          } catch {
            // an event without JSON data: the reload below is all it asks
          }
        }
        if (pending) clearTimeout(pending);
        pending = setTimeout(() => void reload(), 150);
      });
    }
  })();
}
