/*
 * Global Diplomacy's commands as text (seed 004, appendix A): `parseCommand` reads one line's
 * shape (two letters, then numbers), `checkAgainstState` what the start of the turn allows
 * (the power's own unit, a neighbour), and `readCommandSet` a power's lines, one verdict a
 * line (one command per area, the spies a turn). The adjudicator judges the rest.
 */
import type { GlobalMap } from "./map.ts";
import type { Command, CommandLine, GameState, Op, PowerId, Unit } from "./types.ts";
import { isNaval, SEQUENCE } from "./types.ts";
import { worldMap } from "./world.ts";

/** The longest anonymous message (7.12). */
export const MESSAGE_LENGTH = 45;

const FORMATS: Readonly<Record<Op, string>> = {
  AA: "AA area",
  AC: "AC area",
  AF: "AF area",
  AS: "AS area",
  CA: "CA ally enemy",
  CO: "CO area-from sea-area(1) ... sea-area(n) area-to",
  DA: "DA power(1) ... power(n)",
  DN: "DN power(1) ... power(n)",
  DW: "DW power(1) ... power(n)",
  DU: "DU area",
  GA: "GA power area(1) ... area(n), or GA power all",
  ME: "ME power message-text (power 0 or all for everyone)",
  MO: "MO area-from area-to",
  RU: "RU area",
  SA: "SA area-from area-to [power]",
  SD: "SD area-from area-to",
  SP: "SP area(1) ... area(6)",
  UU: "UU area",
  VC: "VC turn-length percentage",
};

type Parsed = { ok: true; command: Command } | { ok: false; reason: string };

/**
 * Reads one command in the seed's syntax (appendix A): two letters, then numbers. Checks
 * only the shape and that areas and powers exist; what the board allows is the
 * adjudicator's business (relations may change earlier in the same turn).
 */
export function parseCommand(text: string, map: GlobalMap): Parsed {
  const words = text.trim().split(/\s+/);
  const op = (words[0] ?? "").toUpperCase();
  if (!(SEQUENCE as readonly string[]).includes(op)) {
    return {
      ok: false,
      reason: `"${words[0] ?? ""}" is not a command; commands are ${SEQUENCE.join(", ")}`,
    };
  }
  const o = op as Op;
  const fail = (why: string): Parsed => ({
    ok: false,
    reason: `${why}; the format is ${FORMATS[o]}`,
  });
  if (o === "ME") {
    const m = /^\s*\S+\s+(\S+)\s*(.*)$/.exec(text);
    if (!m) return fail("ME needs a power and a message");
    const to = m[1]!.toLowerCase() === "all" || m[1] === "0" ? "all" : Number(m[1]);
    if (to !== "all" && !map.power(to)) return fail(`there is no power ${m[1]}`);
    const body = m[2]!.trim();
    if (body === "") return fail("the message is empty");
    if (body.length > MESSAGE_LENGTH)
      return fail(
        `the message has ${body.length} characters, more than ${MESSAGE_LENGTH}: split it into two messages`,
      );
    return { ok: true, command: { op: "ME", to, text: body } };
  }
  const args = words.slice(1);
  if (o === "GA" && args.length >= 1) {
    const rest = args.slice(1).map((a) => a.toLowerCase());
    if (rest.length === 0 || (rest.length === 1 && (rest[0] === "all" || rest[0] === "0"))) {
      const power = Number(args[0]);
      if (!Number.isInteger(power) || !map.power(power))
        return fail(`there is no power ${args[0]}`);
      return { ok: true, command: { op: "GA", power, areas: "all" } };
    }
  }
  const nums: number[] = [];
  for (const a of args) {
    if (!/^\d+$/.test(a)) return fail(`"${a}" is not a number`);
    nums.push(Number(a));
  }
  const area = (n: number | undefined): string | null =>
    n === undefined ? "missing area" : map.area(n) ? null : `there is no area ${n}`;
  const power = (n: number | undefined): string | null =>
    n === undefined ? "missing power" : map.power(n) ? null : `there is no power ${n}`;
  const count = (min: number, max: number): string | null =>
    nums.length < min || nums.length > max
      ? `${o} takes ${min === max ? min : `${min} to ${max}`} number${max === 1 ? "" : "s"}, not ${nums.length}`
      : null;
  const first = (...errs: (string | null)[]): string | null => errs.find((e) => e) ?? null;
  switch (o) {
    case "AA":
    case "AC":
    case "AF":
    case "AS":
    case "DU":
    case "RU":
    case "UU": {
      const e = first(count(1, 1), area(nums[0]));
      return e ? fail(e) : { ok: true, command: { op: o, area: nums[0]! } };
    }
    case "CA": {
      const e = first(count(2, 2), power(nums[0]), power(nums[1]));
      return e ? fail(e) : { ok: true, command: { op: o, ally: nums[0]!, enemy: nums[1]! } };
    }
    case "CO": {
      const e = first(
        nums.length < 3
          ? "CO needs the land unit's area, at least one sea area and the destination"
          : null,
        ...nums.map(area),
      );
      if (e) return fail(e);
      return {
        ok: true,
        command: { op: o, from: nums[0]!, seas: nums.slice(1, -1), to: nums[nums.length - 1]! },
      };
    }
    case "DA":
    case "DN":
    case "DW": {
      const e = first(nums.length === 0 ? "name at least one power" : null, ...nums.map(power));
      return e ? fail(e) : { ok: true, command: { op: o, powers: [...new Set(nums)] } };
    }
    case "GA": {
      const e = first(power(nums[0]), ...nums.slice(1).map(area));
      return e
        ? fail(e)
        : { ok: true, command: { op: o, power: nums[0]!, areas: [...new Set(nums.slice(1))] } };
    }
    case "MO":
    case "SD": {
      const e = first(count(2, 2), area(nums[0]), area(nums[1]));
      return e ? fail(e) : { ok: true, command: { op: o, from: nums[0]!, to: nums[1]! } };
    }
    case "SA": {
      const e = first(
        count(2, 3),
        area(nums[0]),
        area(nums[1]),
        nums[2] !== undefined ? power(nums[2]) : null,
      );
      if (e) return fail(e);
      return {
        ok: true,
        command:
          nums[2] !== undefined
            ? { op: o, from: nums[0]!, to: nums[1]!, power: nums[2] }
            : { op: o, from: nums[0]!, to: nums[1]! },
      };
    }
    case "SP": {
      const e = first(
        nums.length === 0 ? "name at least one area" : null,
        nums.length > map.data.spies
          ? `only ${map.data.spies} spies a turn, not ${nums.length}`
          : null,
        new Set(nums).size !== nums.length ? "each spy goes to a different area" : null,
        ...nums.map(area),
      );
      return e ? fail(e) : { ok: true, command: { op: o, areas: nums } };
    }
    case "VC": {
      const e = count(2, 2);
      if (e) return fail(e);
      const [tLo, tHi] = map.data.turnRange;
      const [pLo, pHi] = map.data.percentRange;
      if (nums[0]! < tLo || nums[0]! > tHi)
        return fail(`the turn length must be between ${tLo} and ${tHi}, not ${nums[0]}`);
      if (nums[1]! < pLo || nums[1]! > pHi)
        return fail(`the percentage must be between ${pLo} and ${pHi}, not ${nums[1]}`);
      return { ok: true, command: { op: o, turns: nums[0]!, percent: nums[1]! } };
    }
  }
  return fail("unreadable");
}

/**
 * The area a command gives an order to (one command per area/unit a turn): the area of a
 * command on one area (AA AC AF AS DU RU UU), the start of a move (CO MO SA SD), else none.
 */
export function commandArea(c: Command): number | undefined {
  if ("area" in c) return c.area;
  if ("from" in c) return c.from;
  return undefined;
}

/**
 * A power's commands for a turn, one per line, each read against the state: the command or
 * the reason it is refused. What only the turn's sequence can decide (relations changed by
 * DA/DW the same turn, supply after conflicts) is left to the adjudicator, which gives its
 * own reasons; this is what a mail gateway acknowledges line by line.
 */
export function readCommandSet(
  text: string,
  state: GameState,
  power: PowerId,
  map: GlobalMap = worldMap,
): CommandLine[] {
  const out: CommandLine[] = [];
  const used = new Map<number, string>();
  let spies = 0;
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, i) => {
    const t = raw.trim();
    if (t === "") return;
    const line = i + 1;
    const p = parseCommand(t, map);
    if (!p.ok) {
      out.push({ line, text: t, ok: false, reason: p.reason });
      return;
    }
    const why = checkAgainstState(p.command, state, power, map);
    if (why) {
      out.push({ line, text: t, ok: false, reason: why });
      return;
    }
    const c = p.command;
    const a = commandArea(c);
    if (a !== undefined) {
      const prev = used.get(a);
      if (prev) {
        out.push({
          line,
          text: t,
          ok: false,
          reason: `area ${a} already has a command this turn (${prev}); one command per area`,
        });
        return;
      }
      used.set(a, t);
    }
    if (c.op === "SP") {
      if (spies + c.areas.length > map.data.spies) {
        out.push({
          line,
          text: t,
          ok: false,
          reason: `only ${map.data.spies} spies a turn; ${spies} already sent`,
        });
        return;
      }
      spies += c.areas.length;
    }
    out.push({ line, text: t, ok: true, command: c });
  });
  return out;
}

/** Static checks a command must pass against the start-of-turn state. */
export function checkAgainstState(
  c: Command,
  state: GameState,
  power: PowerId,
  map: GlobalMap,
): string | null {
  /** The power's own unit in area `a`, or why it cannot `what`. */
  const own = (a: number, what: string): Unit | string => {
    const u = state.units.find((x) => x.area === a);
    if (!u) return `there is no unit in ${map.areaName(a)} to ${what}`;
    if (u.power !== power)
      return `the unit in ${map.areaName(a)} belongs to ${u.power}-${map.powerName(u.power)}, not to you`;
    return u;
  };
  /** The power's own unit in `from` when `to` is next to it (a move, a support), or why not. */
  const ownNextTo = (from: number, to: number, what: string): Unit | string => {
    const u = own(from, what);
    if (typeof u === "string") return u;
    return map.adjacent(from, to) ? u : `${map.areaName(to)} is not next to ${from}`;
  };
  switch (c.op) {
    case "MO": {
      const u = ownNextTo(c.from, c.to, "move");
      if (typeof u === "string") return u;
      if (!map.canCross(u.kind, c.from, c.to))
        return isNaval(u.kind)
          ? `a ${u.kind} cannot sail from ${c.from} to ${c.to} (no common sea)`
          : `a ${u.kind} cannot enter ${map.areaName(c.to)}, a sea area (use CO)`;
      return null;
    }
    case "SA":
    case "SD": {
      const u = ownNextTo(c.from, c.to, "give support");
      if (typeof u === "string") return u;
      if (!map.canCross(u.kind, c.from, c.to))
        return `the ${u.kind} in ${c.from} could not move to ${map.areaName(c.to)}, so it cannot support there`;
      // Alliances and war are checked at adjudication (a DA or DW the same turn counts).
      return null;
    }
    case "CO": {
      const u = own(c.from, "convoy");
      if (typeof u === "string") return u;
      if (isNaval(u.kind)) return `CO carries land units; the unit in ${c.from} is a ${u.kind}`;
      return null;
    }
    case "DU":
    case "RU": {
      const u = own(c.area, c.op === "DU" ? "downgrade" : "remove");
      return typeof u === "string" ? u : null;
    }
    case "UU": {
      const u = own(c.area, "upgrade");
      if (typeof u === "string") return u;
      if (u.kind === "army" || u.kind === "fleet")
        return `the ${u.kind} in ${c.area} is already a 2-point unit`;
      return null;
    }
    case "VC":
      return state.turn === 1 ? null : "VC is only given on the first turn";
    case "DW":
      return state.turn === 1 ? "no war may be declared on the first turn" : null;
    case "CA":
      if (c.ally === power || c.enemy === power || c.ally === c.enemy)
        return "CA names an ally and an enemy, two other powers";
      return null;
    case "DA":
    case "DN":
    case "GA":
      if ((c.op === "GA" ? [c.power] : c.powers).includes(power)) return "you cannot name yourself";
      return null;
    default:
      return null;
  }
}
