/** What naming needs of a power (a `Power`, or the web client's copy of one). */
export interface NamedPower {
  readonly id: string;
  readonly name: string;
  readonly adjective: string;
  readonly aliases?: readonly string[];
}

/*
 * A power named by a person: its id, name, adjective, or any of the variant's aliases for it
 * (`UK`, `Great Britain`, `England` for europe1935's United Kingdom). Every reader of a power
 * name (order-set headers, order files, mail, the judge, the committee's orders) asks here, so
 * a name accepted in one place is accepted in all.
 */

/** How power names are compared: case, periods, a leading "the" and extra blanks ignored. */
export function powerKey(text: string): string {
  return text
    .toLowerCase()
    .replace(/\u2019/g, "'")
    .replace(/\./g, "")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^the /, "");
}

/** Every name a power answers to: id, name, adjective, then the variant's aliases. */
export function powerNames(power: NamedPower): readonly string[] {
  return [power.id, power.name, power.adjective, ...(power.aliases ?? [])];
}

const cache = new WeakMap<readonly NamedPower[], ReadonlyMap<string, string>>();

function index(powers: readonly NamedPower[]): ReadonlyMap<string, string> {
  const hit = cache.get(powers);
  if (hit) return hit;
  const out = new Map<string, string>();
  for (const p of powers) {
    for (const n of powerNames(p)) {
      const k = powerKey(n);
      if (k !== "" && !out.has(k)) out.set(k, p.id);
    }
  }
  cache.set(powers, out);
  return out;
}

/** The power a name (`UK`, `Soviet Union:`, `the United Kingdom`) stands for, or null. */
export function findPowerByName<P extends NamedPower>(
  powers: readonly P[],
  text: string,
): P["id"] | null {
  const k = powerKey(text.replace(/\s*:\s*$/, ""));
  if (k === "") return null;
  const id = index(powers).get(k);
  return id === undefined ? null : (powers.find((p) => p.id === id)?.id ?? null);
}
