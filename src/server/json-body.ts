/*
 * What a JSON request body may be, and how a bad one is told: the nesting bound (64 levels,
 * checked right after parsing: a 400 naming where, never a stack overflow) and, for a body
 * that is not JSON, the line, column and what was expected there. server.ts calls these on
 * every body.
 */

/**
 * How deep a request body may nest (objects and lists inside one another). Rule options,
 * variant data and positions nest a few levels; the bound is checked on every body right
 * after parsing, before a schema, the judge or the engine recurses into it, so that valid
 * JSON nested thousands of levels deep is a 400 instead of a stack overflow.
 */
export const MAX_DEPTH = 64;

/**
 * The path of the first value nested deeper than `max` levels (counting the body as level
 * 0), or null. Iterative: it cannot overflow the stack itself.
 */
export function tooDeep(value: unknown, max = MAX_DEPTH): string | null {
  const stack: [unknown, number, string][] = [[value, 0, "body"]];
  while (stack.length > 0) {
    const [v, depth, path] = stack.pop()!;
    if (typeof v !== "object" || v === null) continue;
    if (depth >= max) return path;
    // The path names the first levels, then stops: a path thousands of levels long says no more.
    const at = (key: string) => (depth < 4 ? `${path}${key}` : path);
    const entries = Array.isArray(v)
      ? v.map((x, i) => [`[${i}]`, x] as const)
      : Object.entries(v).map(([k, x]) => [`.${k}`, x] as const);
    for (const [key, x] of entries) stack.push([x, depth + 1, at(key)]);
  }
  return null;
}

/** The message for a body that nests too deep: where, and the bound. */
export const tooDeepMessage = (path: string) =>
  `${path}: nested more than ${MAX_DEPTH} levels deep (lists and objects inside one another); no request needs that many`;

/**
 * Where a text stops being JSON, for the 400 answer: "line 3, column 7: expected ',' or '}'
 * after a property, found '\"'". JSON.parse has failed on `text` already; this scanner only
 * finds the place and says what was expected there.
 */
export function jsonErrorAt(text: string): string {
  let i = 0;
  const fail = (expected: string): never => {
    const before = text.slice(0, i);
    const line = before.split("\n").length;
    const column = i - before.lastIndexOf("\n");
    const found = i >= text.length ? "the end of the body" : JSON.stringify(text[i]);
    throw new Error(`line ${line}, column ${column}: expected ${expected}, found ${found}`);
  };
  const ws = () => {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
  };
  const literal = (word: string) => {
    for (const c of word) {
      if (text[i] !== c) fail(`"${word}"`);
      i++;
    }
  };
  const string = () => {
    i++; // the opening quote
    for (;;) {
      if (i >= text.length) fail('a closing "');
      const c = text[i]!;
      if (c === '"') {
        i++;
        return;
      }
      if (c < " ") fail("no control character inside a string (write \\n, \\t)");
      if (c === "\\") {
        i++;
        const e = text[i];
        if (e === "u") {
          for (let k = 1; k <= 4; k++) {
            if (!/[0-9a-fA-F]/.test(text[i + k] ?? "")) {
              i += k;
              fail("four hex digits after \\u");
            }
          }
          i += 5;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i++;
        else fail('an escape (\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\u)');
      } else i++;
    }
  };
  const number = () => {
    if (text[i] === "-") i++;
    if (text[i] === "0") i++;
    else if (/[1-9]/.test(text[i] ?? "")) while (/[0-9]/.test(text[i] ?? "")) i++;
    else fail("a digit");
    if (text[i] === ".") {
      i++;
      if (!/[0-9]/.test(text[i] ?? "")) fail("a digit after the decimal point");
      while (/[0-9]/.test(text[i] ?? "")) i++;
    }
    if (text[i] === "e" || text[i] === "E") {
      i++;
      if (text[i] === "+" || text[i] === "-") i++;
      if (!/[0-9]/.test(text[i] ?? "")) fail("a digit in the exponent");
      while (/[0-9]/.test(text[i] ?? "")) i++;
    }
  };
  /** After `{` or `[`: each `item` up to `close`, commas between them. */
  const items = (close: "}" | "]", what: string, item: () => void) => {
    i++;
    ws();
    if (text[i] === close) {
      i++;
      return;
    }
    for (;;) {
      item();
      ws();
      if (text[i] === ",") {
        i++;
        continue;
      }
      if (text[i] === close) {
        i++;
        return;
      }
      fail(`',' or '${close}' after ${what}`);
    }
  };
  const value = (depth: number): void => {
    if (depth > MAX_DEPTH) fail(`less nesting (at most ${MAX_DEPTH} levels)`);
    ws();
    const c = text[i];
    if (c === "{")
      items("}", "a property", () => {
        ws();
        if (text[i] !== '"') fail('a property name in double quotes ("name")');
        string();
        ws();
        if (text[i] !== ":") fail("':' after the property name");
        i++;
        value(depth + 1);
      });
    else if (c === "[") items("]", "an element", () => value(depth + 1));
    else if (c === '"') string();
    else if (c === "t") literal("true");
    else if (c === "f") literal("false");
    else if (c === "n") literal("null");
    else if (c === "-" || /[0-9]/.test(c ?? "")) number();
    else
      fail("a value (an object, a list, a string in double quotes, a number, true, false or null)");
  };
  try {
    value(0);
    ws();
    if (i < text.length) fail("nothing more after the value");
    return "it cannot be read as JSON";
  } catch (e) {
    return (e as Error).message;
  }
}
