import type { GlobalMap } from "./map.ts";
import { possibleCommands } from "./possible.ts";
import {
  penaltyOf,
  percentIncrease,
  ranking,
  relationOf,
  supplyPoints,
  unitPointsOf,
  victoryConditions,
  victoryPoints,
} from "./state.ts";
import type { AreaId, CommandResult, GameState, PowerId, TurnResult, Unit } from "./types.ts";
import { UNIT_LETTERS } from "./types.ts";

/*
 * A Global Diplomacy turn's report as the rules print it (seed 004): captures, news bulletins,
 * each power's situation and possible commands, and the accounting of supply and victory
 * points.
 */
const pad = (s: string | number, n: number): string => String(s).padEnd(n);
const lpad = (s: string | number, n: number): string => String(s).padStart(n);

/** Victory points an area is worth: 1, plus its supply value, plus 5 for a capital. */
function areaValue(map: GlobalMap, a: AreaId): number {
  const area = map.area(a)!;
  return 1 + area.supply + (area.capital !== undefined ? 5 : 0);
}

/** Captures between powers this turn: [from, to, areas]. */
export function captures(
  map: GlobalMap,
  r: TurnResult,
): { from: PowerId; to: PowerId; areas: AreaId[] }[] {
  const out = new Map<string, { from: PowerId; to: PowerId; areas: AreaId[] }>();
  for (const area of map.areas) {
    const before = r.before.owners[area.id];
    const after = r.after.owners[area.id];
    if (before === undefined || after === undefined || before === after) continue;
    const k = `${before}>${after}`;
    const x = out.get(k) ?? { from: before, to: after, areas: [] };
    x.areas.push(area.id);
    out.set(k, x);
  }
  return [...out.values()];
}

/** The public news of a turn (identical for every player). */
export function newsBulletins(map: GlobalMap, r: TurnResult): string[] {
  const name = (p: PowerId): string => `${p}-${map.powerName(p)}`;
  const lines: string[] = [];
  for (const c of captures(map, r)) {
    const vp = c.areas.reduce((s, a) => s + areaValue(map, a), 0);
    const size =
      vp > 10 ? "SPECTACULAR gain" : vp >= 7 ? "major gain" : vp >= 3 ? "minor gain" : "gain";
    lines.push(
      `${name(c.to)} captures ${c.areas.map((a) => map.areaName(a)).join(", ")} from ${name(c.from)} (${size}, ${vp} VP)`,
    );
  }
  const after = r.after;
  const vc = victoryConditions(map, after);
  const left = vc.turns - r.turn;
  for (const [i, row] of ranking(map, after).entries()) {
    if (i < 4) lines.push(`${name(row.power)} is doing very well`);
    if (row.percent >= vc.percent * 0.8 || (left <= 3 && row.percent >= vc.percent * 0.7))
      lines.push(`${name(row.power)} is doing VERY WELL`);
  }
  lines.push("Alliance headlines:");
  for (const n of r.news) lines.push(`  ${n}`);
  return lines;
}

function unitText(u: Unit | undefined, power: PowerId): string {
  if (!u) return "";
  return `${UNIT_LETTERS[u.kind]} ${u.power === power ? "****" : lpad(u.power, 4)}`;
}

function ownerText(o: PowerId | undefined, power: PowerId): string {
  if (o === undefined) return "    ";
  return o === power ? "****" : lpad(o, 4);
}

/**
 * The report of section 8 for one power after a turn: header, highlights, the body (areas
 * owned or occupied, then, below the double line, areas spied on or adjacent), the
 * relations matrix, the news, its command results and its possible commands. It shows
 * only what that power may see: other powers' commands only for units in areas it sees,
 * and messages without their sender.
 */
export function turnReport(
  map: GlobalMap,
  r: TurnResult,
  power: PowerId,
  gameId = map.data.id,
): string {
  const s: GameState = r.after;
  const before: GameState = r.before;
  const me = map.power(power);
  const lines: string[] = [];
  const rule = "-".repeat(78);
  lines.push(
    `${map.data.name.toUpperCase()}   Game ${gameId}   Turn ${r.turn} report   Next turn ${s.turn}`,
  );
  lines.push(`Great Power ${power}-${me?.name ?? "?"}`);
  lines.push(rule);
  // Highlights.
  const owned = Object.entries(s.owners)
    .filter(([, o]) => o === power)
    .map(([a]) => Number(a));
  const mine = s.units.filter((u) => u.power === power);
  const count = (k: Unit["kind"]): number => mine.filter((u) => u.kind === k).length;
  const rank = ranking(map, s);
  const myRank = rank.find((x) => x.power === power)!;
  lines.push("HIGHLIGHTS");
  lines.push(
    `  Holdings:  ${owned.length} land areas, ${supplyPoints(map, s, power)} supply points`,
  );
  lines.push(
    `  Strength:  ${unitPointsOf(s.units, power)} unit points: ${count("army")} armies, ${count("fleet")} fleets, ${count("corps")} corps, ${count("squadron")} squadrons`,
  );
  const pen = penaltyOf(s, power);
  lines.push(
    `  Standing:  ${victoryPoints(map, s, power)} victory points, ${percentIncrease(map, s, power)}% increase${pen > 0 ? ` (call-to-arms penalty ${pen}%)` : ""}, rank ${myRank.rank} of ${rank.length}`,
  );
  if (s.winners)
    lines.push(
      `  GAME OVER: won by ${s.winners.map((w) => `${w}-${map.powerName(w)}`).join(", ")}`,
    );
  lines.push(rule);
  // Body.
  const startUnitAt = new Map(before.units.map((u) => [u.area, u]));
  const endUnitAt = new Map(s.units.map((u) => [u.area, u]));
  const home = new Set<AreaId>();
  for (const [a, o] of Object.entries(before.owners)) if (o === power) home.add(Number(a));
  for (const a of owned) home.add(a);
  for (const u of before.units) if (u.power === power) home.add(u.area);
  for (const u of s.units) if (u.power === power) home.add(u.area);
  const interest = new Set<AreaId>();
  for (const a of r.spies[power] ?? []) interest.add(a);
  for (const a of home) for (const n of map.neighbours(a)) interest.add(n);
  for (const a of home) interest.delete(a);
  const commandFor = (a: AreaId): CommandResult | undefined =>
    r.results.find((c) => {
      const cmd = c.command;
      if (!cmd || c.power !== startUnitAt.get(a)?.power) return false;
      return (
        ("from" in cmd && cmd.from === a) ||
        ("area" in cmd &&
          cmd.area === a &&
          cmd.op !== "AA" &&
          cmd.op !== "AC" &&
          cmd.op !== "AF" &&
          cmd.op !== "AS")
      );
    });
  const outcomeFor = (a: AreaId) => r.outcomes.find((o) => o.from === a && o.mark !== "built");
  const row = (a: AreaId): string => {
    const area = map.area(a)!;
    const sc = area.supply === 2 ? "**" : area.supply === 1 ? "* " : "  ";
    const cap = area.capital !== undefined ? "<>" : "  ";
    const own =
      area.kind === "sea"
        ? "         "
        : `${ownerText(before.owners[a], power)}/${ownerText(s.owners[a], power)}`;
    const u = startUnitAt.get(a);
    let cmd = "";
    if (u) {
      const c = commandFor(a);
      if (c) cmd = c.status === "ok" ? c.text : `(${c.text})`;
      const o = outcomeFor(a);
      if (o?.mark === "dead" || o?.mark === "FRU")
        cmd += ` (-/${o.mark === "FRU" ? "FRU" : "DEAD"})`;
      else if (o?.mark === "retreat" && o.to !== null) cmd += ` (-/R${o.to})`;
      else if (o?.mark === "FDU") cmd += " (FDU)";
    }
    const built = r.outcomes.find((o) => o.mark === "built" && o.from === a);
    if (built) cmd = `${cmd} new ${UNIT_LETTERS[built.kind]}`.trim();
    return `${lpad(a, 3)} ${pad(area.name, 18)} ${sc}${cap} ${own}  ${pad(unitText(u, power), 7)} ${pad(cmd, 22)} ${unitText(endUnitAt.get(a), power)}`;
  };
  lines.push("AREA                   SC    OWNER      UNIT    COMMAND                NOW");
  for (const a of [...home].sort((x, y) => x - y)) lines.push(row(a));
  lines.push("=".repeat(78));
  for (const a of [...interest].sort((x, y) => x - y)) lines.push(row(a));
  lines.push(rule);
  // Relations.
  lines.push("RELATIONS (WWWW war, AAAA allied, blank neutral)");
  const ids = map.powers.map((p) => p.id);
  lines.push(`     ${ids.map((i) => lpad(i, 5)).join("")}`);
  for (const a of ids) {
    const cells = ids.map((b) => {
      if (a === b) return "   --";
      const x = relationOf(s.relations, a, b);
      return x === "war" ? " WWWW" : x === "alliance" ? " AAAA" : "     ";
    });
    lines.push(`${lpad(a, 4)} ${cells.join("")}`);
  }
  lines.push(rule);
  lines.push("NEWS BULLETINS");
  for (const n of newsBulletins(map, r)) lines.push(`  ${n}`);
  const msgs = r.messages[power] ?? [];
  if (msgs.length > 0) {
    lines.push("MESSAGES (sender unknown)");
    for (const m of msgs) lines.push(`  ${m}`);
  }
  lines.push(rule);
  lines.push("COMMAND RESULTS");
  const mineResults = r.results.filter((c) => c.power === power);
  if (mineResults.length === 0) lines.push("  (no commands received)");
  for (const c of mineResults) {
    const text = c.status === "ok" ? c.text : `(${c.text})`;
    lines.push(`  ${pad(text, 24)} ${c.status.toUpperCase()}${c.reason ? `: ${c.reason}` : ""}`);
  }
  for (const o of r.outcomes.filter(
    (x) => x.power === power && (x.mark === "FRU" || x.mark === "FDU"),
  ))
    lines.push(
      `  ${o.mark} ${o.from}: the moderator ${o.mark === "FRU" ? "removed" : "downgraded"} a unit to meet your supply`,
    );
  lines.push(rule);
  lines.push("POSSIBLE COMMANDS FOR NEXT TURN");
  if (!s.winners) {
    const pos = possibleCommands(map, s, power);
    if (pos.surplus > 0)
      lines.push(
        `  Surplus of ${pos.surplus} supply points: ${pos.adjustments.join(", ") || "no empty centre"}`,
      );
    if (pos.surplus < 0)
      lines.push(
        `  Deficit of ${-pos.surplus} points, to meet with RU or DU: ${pos.adjustments.join(", ")}`,
      );
    for (const u of pos.units)
      lines.push(
        `  ${UNIT_LETTERS[u.unit.kind]} ${lpad(u.unit.area, 3)}: MO to ${u.moves.join(" ") || "-"}; ${u.supports.join(", ")}`,
      );
    lines.push(`  Relations: ${pos.relations.join(", ")}`);
    lines.push(
      `  Spies: SP with up to ${map.data.spies} areas; messages: ME power text (${45} characters)`,
    );
    if (s.turn === 1)
      lines.push(
        `  Victory conditions: VC turns (${map.data.turnRange.join("-")}) percent (${map.data.percentRange.join("-")})`,
      );
  } else lines.push("  (the game is over)");
  return `${lines.join("\n")}\n`;
}

/** What the accounting section of a report shows (section 8): the account and its last turns. */
export interface Accounting {
  /** The account id the player writes after EMGSTART; null: the account plays no mail. */
  readonly accountId: string | null;
  /** The account's name and mail address (the judge keeps no other personal details). */
  readonly name: string;
  readonly address: string | null;
  /** The game's id as its players know it, and the player's power (`3-England`). */
  readonly game: string;
  readonly power: string;
  /** The last turns processed (at most ten, oldest first): when, and the commands received. */
  readonly turns: readonly {
    readonly turn: number;
    readonly processed: string;
    readonly commands: number;
  }[];
  /** The next turn and its deadline, while the game goes on. */
  readonly next: { readonly turn: number; readonly deadline: string | null } | null;
}

/**
 * The accounting section of section 8, the first part of a report as its player receives it:
 * the account id, name and address, and the last ten game turns (when each was processed and
 * how many commands the account had on file; none: its units held). It names the account's
 * id, so it goes to that account's player alone, never into the reports the GM reads.
 */
export function accountingSection(a: Accounting): string {
  const rule = "-".repeat(78);
  const turns = a.turns.slice(-10);
  return [
    "ACCOUNTING",
    `  Account Id  ${a.accountId ?? "none: register a mail address to play by mail (docs/email.md)"}${a.accountId ? "   (the line after EMGSTART in your mail; keep it to yourself)" : ""}`,
    `  Name        ${a.name}`,
    `  Address     ${a.address ?? "none"}`,
    `  Game        ${a.game}, Great Power ${a.power}`,
    turns.length === 0
      ? "  Last turns  none processed yet"
      : `  Last ${turns.length === 1 ? "turn" : `${turns.length} turns`}`,
    ...(turns.length > 0 ? ["    Turn  Processed             Your commands"] : []),
    ...turns.map(
      (t) =>
        `    ${lpad(t.turn, 4)}  ${pad(t.processed, 20)}  ${t.commands > 0 ? `${t.commands} received` : "none received: your units held"}`,
    ),
    a.next
      ? `  Next turn   ${a.next.turn}${a.next.deadline ? `, commands due by ${a.next.deadline}` : ""}`
      : "  The game is over.",
    rule,
    "",
  ].join("\n");
}
