import { CliError } from "./errors.ts";

/*
 * How many game-years self-play runs (entente selfplay, entente bench selfplay): a module of
 * its own so that the command definitions (program.ts) can name the default without loading
 * the self-play code.
 */

/** Game-years a self-play game runs from its variant's start when no year is given. */
export const DEFAULT_YEARS = 35;

/**
 * The last year a game of `startYear` is played to: `until` when given, else `years`
 * (DEFAULT_YEARS) game-years from the start. A user's mistake is a CliError.
 */
export function lastYear(startYear: number, years?: number, until?: number): number {
  if (years !== undefined && until !== undefined)
    throw new CliError("give --years or --until, not both");
  if (until !== undefined) {
    if (!Number.isInteger(until) || until < startYear)
      throw new CliError(
        `--until ${until} is before the variant's start in ${startYear}; give a year from ${startYear} on, or --years N`,
      );
    return until;
  }
  const n = years ?? DEFAULT_YEARS;
  if (!Number.isInteger(n) || n < 1)
    throw new CliError(`--years must be a whole number of at least 1, not ${n}`);
  return startYear + n - 1;
}
