/*
 * Progress of long work (self-play, a long replay, rendering every phase of a game), drawn on
 * standard error only when it is a terminal: piped or redirected, the command stays quiet.
 */

/**
 * A progress reporter: call with the units done so far; the line ends at `total`, or at
 * `finish()` when the work stops sooner (a replay that fails half-way).
 */
export type Progress = ((done: number) => void) & { finish(): void };

/** Draws `[#####.....] done/total what` on stderr when stderr is a terminal, else nothing. */
export function progressBar(
  total: number,
  what: string,
  stream: NodeJS.WriteStream = process.stderr,
): Progress {
  if (!stream.isTTY || total <= 0) return Object.assign(() => {}, { finish: () => {} });
  const width = 30;
  let last = -1;
  const update = (done: number) => {
    const filled = Math.round((Math.min(done, total) / total) * width);
    // Redraw only when the bar or the count changes, at most once per unit of work.
    if (done === last) return;
    last = done;
    stream.write(`\r[${"#".repeat(filled)}${".".repeat(width - filled)}] ${done}/${total} ${what}`);
    if (done >= total) stream.write("\n");
  };
  const finish = () => {
    if (last >= 0 && last < total) stream.write("\n");
    last = total;
  };
  return Object.assign(update, { finish });
}
