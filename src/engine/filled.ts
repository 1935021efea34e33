/**
 * Lists of one value, made by copying a kept list (`slice`) instead of `new Array(n).fill(v)`:
 * half the time for the few dozen elements a phase's tables have, and the copy is a packed
 * array where `new Array(n)` makes a holey one, which every read then checks for holes
 * (docs/performance.md, "Fifth pass on the contract"). For the resolver's and the
 * interpreter's per-phase tables; the kept lists grow to the longest asked for.
 */

/** A packed list of `n` times `v` (built by `push`: `new Array(n)` would be holey). */
function packed<T>(n: number, v: T): T[] {
  const list: T[] = [];
  for (let i = 0; i < n; i++) list.push(v);
  return list;
}

let minusOnes: number[] = packed(128, -1);
let zeros: number[] = packed(128, 0);
let falses: boolean[] = packed(128, false);

/** A new list of `n` times -1. */
export function minusOneList(n: number): number[] {
  if (n > minusOnes.length) minusOnes = packed(2 * n, -1);
  return minusOnes.slice(0, n);
}

/** A new list of `n` times 0. */
export function zeroList(n: number): number[] {
  if (n > zeros.length) zeros = packed(2 * n, 0);
  return zeros.slice(0, n);
}

/** A new list of `n` times false. */
export function falseList(n: number): boolean[] {
  if (n > falses.length) falses = packed(2 * n, false);
  return falses.slice(0, n);
}
