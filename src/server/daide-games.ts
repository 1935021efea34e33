/*
 * The judge's games with DAIDE seats, each on its port (`entente serve --daide-ports`;
 * daide-game.ts is one game): after each scheduler tick the games whose port is open
 * (forming or running) are listened on, each told what the judge did since (`refresh`), and
 * a game that has ended is told so (SLO or DRW, SMR, OFF), its listener closed and its port
 * freed for the next game. A port another program holds makes the game take another one.
 */
import type { Judge } from "../judge/judge.ts";
import { DaideGame } from "./daide-game.ts";

export interface DaideGamesOptions {
  /** The address the DAIDE ports listen on (the server's). */
  readonly host?: string | undefined;
  readonly log: (line: string) => void;
}

export class DaideGames {
  readonly #judge: Judge;
  readonly #o: DaideGamesOptions;
  readonly #games = new Map<string, DaideGame>();
  /** Ports a game could not listen on, per game (another program holds them). */
  readonly #failed = new Map<string, Set<number>>();
  #closed = false;
  /** The refresh under way, if any: `close` waits for it (it may be opening a port). */
  #refreshing: Promise<void> | null = null;

  constructor(judge: Judge, options: DaideGamesOptions) {
    this.#judge = judge;
    this.#o = options;
  }

  /** Listens for every game whose port is open; tells each what changed; frees ended ones. */
  async refresh(): Promise<void> {
    if (this.#closed || this.#refreshing) return;
    this.#refreshing = this.#refresh().finally(() => {
      this.#refreshing = null;
    });
    await this.#refreshing;
  }

  async #refresh(): Promise<void> {
    const open = await this.#judge.daideSeats.open();
    for (const { gameId, port } of open) {
      if (this.#closed) return;
      if (this.#games.has(gameId)) continue;
      try {
        const game = await DaideGame.open(this.#judge, gameId, {
          port,
          host: this.#o.host,
          log: this.#o.log,
        });
        this.#games.set(gameId, game);
        this.#o.log(`game ${gameId}: DAIDE clients on port ${port}`);
      } catch (e) {
        const failed = this.#failed.get(gameId) ?? new Set<number>();
        failed.add(port);
        this.#failed.set(gameId, failed);
        try {
          const next = await this.#judge.daideSeats.movePort(gameId, failed);
          this.#o.log(
            `game ${gameId}: DAIDE port ${port} could not be listened on (${(e as Error).message}); the game takes port ${next}`,
          );
        } catch (e2) {
          this.#o.log(`game ${gameId}: no DAIDE port: ${(e2 as Error).message}`);
        }
      }
    }
    for (const [gameId, game] of this.#games) {
      try {
        await game.refresh();
      } catch (e) {
        this.#o.log(`game ${gameId}: DAIDE: ${(e as Error).stack ?? e}`);
      }
      if (game.ended) {
        this.#games.delete(gameId);
        await this.#judge.daideSeats.release(gameId);
        this.#o.log(`game ${gameId}: over; its DAIDE port is free`);
      }
    }
  }

  /**
   * Every game's port closed (the server stops), also one a refresh under way was opening: the
   * refresh is waited for first (the server waits only for its last tick, and a tick finds a
   * refresh still running from an earlier one), else its port would stay open after the stop.
   */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#refreshing?.catch(() => {});
    await Promise.all([...this.#games.values()].map((g) => g.close()));
    this.#games.clear();
  }
}
