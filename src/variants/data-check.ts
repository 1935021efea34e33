/*
 * What the variant loader (data.ts, data-provinces.ts) checks with: a collector of problems,
 * each with the path of the value at fault, and the checks of a value's type every part
 * shares (an object's fields, a non-empty string, a list of them).
 */

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

export const q = (v: unknown): string => JSON.stringify(v);

export class Checker {
  readonly errors: string[] = [];

  add(path: string, message: string): void {
    this.errors.push(`${path}: ${message}`);
  }

  fields(
    obj: Record<string, unknown>,
    path: string,
    allowed: readonly string[],
    required: readonly string[],
  ): void {
    for (const k of Object.keys(obj)) {
      if (!allowed.includes(k))
        this.add(path === "" ? k : `${path}.${k}`, `unknown field (known: ${allowed.join(", ")})`);
    }
    for (const k of required) {
      if (obj[k] === undefined) this.add(path === "" ? k : `${path}.${k}`, "is required");
    }
  }

  text(v: unknown, path: string): string | null {
    if (v === undefined) return null;
    if (typeof v !== "string" || v.trim() === "") {
      this.add(path, `must be a non-empty string, not ${q(v)}`);
      return null;
    }
    return v;
  }

  stringList(v: unknown, path: string): string[] | null {
    if (v === undefined) return null;
    if (!Array.isArray(v)) {
      this.add(path, `must be an array of strings, not ${q(v)}`);
      return null;
    }
    const out: string[] = [];
    v.forEach((s, i) => {
      if (typeof s !== "string" || s.trim() === "")
        this.add(`${path}[${i}]`, `must be a non-empty string, not ${q(s)}`);
      else out.push(s);
    });
    return out;
  }
}
