/**
 * The square grid of an Age of Discovery map: `width` x `height` squares on a torus (the map
 * wraps east-west and north-south, appendix C). A square is its index `y * width + x`, with
 * x from 0 (west) to width - 1 and y from 0 (north) to height - 1 in the map's own frame;
 * players never see this frame, only their own shifted names (names.ts).
 */
export interface Grid {
  readonly width: number;
  readonly height: number;
}

/** The square at (x, y), wrapping both coordinates. */
export function squareAt(grid: Grid, x: number, y: number): number {
  const wx = ((x % grid.width) + grid.width) % grid.width;
  const wy = ((y % grid.height) + grid.height) % grid.height;
  return wy * grid.width + wx;
}

/** The (x, y) of a square. */
export function coordinates(
  grid: Grid,
  square: number,
): { readonly x: number; readonly y: number } {
  return { x: square % grid.width, y: Math.floor(square / grid.width) };
}

/**
 * The four squares sharing an edge with this one (north, east, south, west), wrapping. Squares
 * that only touch at a corner are not neighbours. On a grid narrower than three squares a
 * neighbour can repeat; the generator never makes one.
 */
export function neighbours(grid: Grid, square: number): readonly number[] {
  const { x, y } = coordinates(grid, square);
  return [
    squareAt(grid, x, y - 1),
    squareAt(grid, x + 1, y),
    squareAt(grid, x, y + 1),
    squareAt(grid, x - 1, y),
  ];
}

/** Every square of the grid, in index order. */
export function allSquares(grid: Grid): number[] {
  return Array.from({ length: grid.width * grid.height }, (_, i) => i);
}
