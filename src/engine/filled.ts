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

/**
 * A maker of new lists of `v` (`make(n)`: n times `v`), each a copy of a list it keeps. `v` is
 * shared by every list made, so it must not be changed (the resolver's shared empty list is
 * replaced, never added to).
 */
export function filledLists<T>(v: T): (n: number) => T[] {
  let kept = packed(128, v);
  return (n) => {
    if (n > kept.length) kept = packed(2 * n, v);
    return kept.slice(0, n);
  };
}

/** A new list of `n` times -1. */
export const minusOneList: (n: number) => number[] = filledLists(-1);

/** A new list of `n` times 0. */
export const zeroList: (n: number) => number[] = filledLists(0);

/** A new list of `n` times false. */
export const falseList: (n: number) => boolean[] = filledLists(false);
