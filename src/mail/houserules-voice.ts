import { formatHistory } from "../engine/history.ts";
import { writeSubject } from "../engine/orderset.ts";
import { describePhase, parsePhase } from "../engine/phase.ts";
import type { PowerId } from "../engine/types.ts";
import type { Variant } from "../engine/variant.ts";
import { powerLetters } from "../judge/mail.ts";
import type { Voice } from "./dialect.ts";
import { emgRulesFor } from "./emg.ts";
import type { MailGame } from "./identity.ts";

/*
 * The house rules' voice: how the judge's own mail words a Diplomacy variant game (seed 002),
 * its phases, powers and subjects, the start, each phase's results (orders, civil disorder,
 * published press, the centre table) and the reminders; and the small readers of a variant
 * game houserules.ts shares (its variant, a power's name, a phase in words, the letters).
 */

export const SEASONS =
  "S (spring moves), U (summer retreats), F (fall moves), W (winter retreats and adjustments)";

export function lettersText(variant: Variant): string {
  return powerLetters(variant)
    .map((l) => `${l.letter} ${l.name}`)
    .join(", ");
}

export function powerName(variant: Variant, p: string): string {
  return variant.powers.find((x) => x.id === p)?.name ?? p;
}

export function phaseText(name: string): string {
  const p = parsePhase(name);
  return p ? `${describePhase(p)} (${name})` : name;
}

/** A house-rules game's variant (a game of another family has none: it takes EMG mail). */
export function variantOf(game: MailGame): Variant | null {
  return game.data?.scenario.variant ?? null;
}

/** What civil disorder did to a power that sent no orders, by the kind of phase (seed 001 §3). */
function nmrEffect(phase: string): string {
  const p = parsePhase(phase);
  if (p?.type === "M") return "its units held";
  if (p?.type === "A") return "its removals were made by the civil-disorder rule";
  return "its dislodged units were disbanded";
}

/** The history's lines without its own centre table (the results mail prints a fuller one). */
function withoutCentres(lines: readonly string[]): string[] {
  const out: string[] = [];
  let skipping = false;
  for (const l of lines) {
    if (l.startsWith("Supply centres")) skipping = true;
    else if (skipping && !l.startsWith("  ")) skipping = false;
    if (!skipping) out.push(l);
  }
  while (out.length > 0 && out[out.length - 1] === "") out.pop();
  return out;
}

interface PublishedPress {
  readonly kind: string;
  readonly from: string | null;
  readonly fromName: string;
  readonly body: string;
}

/**
 * The orders with the phase's public press (seed 002 X(1)): each white message after its
 * author's orders (the GM's after all the orders), the grey ones in an "Anonymous Press"
 * section, without any author.
 */
function publishPress(
  variant: Variant,
  history: readonly string[],
  press: readonly PublishedPress[],
): string[] {
  const quote = (m: PublishedPress) => m.body.split("\n").map((l) => `    ${l}`);
  const white = press.filter((m) => m.kind === "white");
  const grey = press.filter((m) => m.kind !== "white");
  const out: string[] = [];
  let author: string | null = null;
  const flush = () => {
    if (author === null) return;
    for (const m of white.filter((x) => x.from === author))
      out.push(`  Press from ${powerName(variant, author)}:`, ...quote(m));
    author = null;
  };
  for (const l of history) {
    const header = variant.powers.find((p) => l === `${p.name}:`);
    if (header || !l.startsWith("  ")) flush();
    if (header) author = header.id;
    out.push(l);
  }
  flush();
  const known = new Set(variant.powers.map((p) => p.id as string));
  const others = white.filter((m) => m.from === null || !known.has(m.from));
  for (const m of others) out.push("", `Press from ${m.fromName}:`, ...quote(m));
  if (grey.length > 0) {
    out.push("", "Anonymous Press:");
    grey.forEach((m, k) => {
      if (k > 0) out.push("");
      out.push(...quote(m));
    });
  }
  return out;
}

/**
 * The supply-centre table after a phase that changes or settles ownership: after a fall
 * movement or retreat phase, the ownership as it will stand (each centre a unit stands on is
 * its power's) and what each power builds or removes; after a winter phase (the house rules'
 * combined winter too), the table as it stands. Empty after other phases.
 */
export function centreTable(
  variant: Variant,
  phase: {
    phase: string;
    position: {
      units: Record<string, string[]>;
      centers?: Record<string, string[]>;
      dislodged?: Record<string, readonly unknown[]>;
    };
  },
): string[] {
  const p = parsePhase(phase.phase);
  if (!p || (p.season !== "F" && p.season !== "W")) return [];
  const adjusting = p.season === "F";
  const owner = new Map<string, string>();
  for (const [power, list] of Object.entries(phase.position.centers ?? {}))
    for (const c of list) owner.set(c, power);
  const centres = new Set(variant.map.supplyCenters.map((c) => c.id as string));
  const units = new Map<string, number>();
  for (const [power, list] of Object.entries(phase.position.units)) {
    units.set(power, list.length);
    if (!adjusting) continue;
    for (const u of list) {
      const at = (u.split(" ")[1] ?? "").split("/")[0]!;
      if (centres.has(at)) owner.set(at, power);
    }
  }
  const lines = [
    "",
    `Supply centres after ${phase.phase}${adjusting ? ", as they will stand" : ""}:`,
  ];
  for (const power of variant.powers) {
    const cs = [...owner]
      .filter(([, o]) => o === power.id)
      .map(([c]) => c)
      .sort();
    const n = units.get(power.id) ?? 0;
    if (cs.length === 0 && n === 0) continue;
    const diff = cs.length - n;
    // Builds go on the power's own home centres that it owns and no unit stands on.
    const occupied = new Set(
      Object.values(phase.position.units).flatMap((l) =>
        l.map((u) => (u.split(" ")[1] ?? "").split("/")[0]!),
      ),
    );
    const open = variant.map
      .homeCenters(power.id)
      .filter((h) => owner.get(h.id) === power.id && !occupied.has(h.id)).length;
    const builds = Math.min(diff, open);
    const adjust = !adjusting
      ? ""
      : diff > 0
        ? `  builds ${builds}${builds < diff ? ` (of ${diff}: no more home centres free)` : ""}`
        : diff < 0
          ? `  removes ${-diff}`
          : "  no change";
    const out = phase.position.dislodged?.[power.id]?.length ?? 0;
    const away = out > 0 ? ` (+${out} dislodged)` : "";
    lines.push(
      `  ${power.name.padEnd(10)}${String(cs.length).padStart(2)} centres, ${String(n).padStart(2)} units${away}${adjust}  ${cs.join(" ")}`,
    );
  }
  const free = [...centres].filter((c) => !owner.has(c)).sort();
  if (free.length > 0)
    lines.push(`  Unowned   ${String(free.length).padStart(2)} centres  ${free.join(" ")}`);
  return lines;
}

export const houseRulesVoice: Voice = {
  serves: (game) => game.data !== null,
  phase: (name) => (name ? phaseText(name) : ""),
  power: (game, power) => {
    const variant = variantOf(game);
    return variant ? powerName(variant, power) : power;
  },
  sends: "orders",
  finalSets: true,
  votesByMail: true,
  footer: (game) => `Orders: subject "${game.abbr} YYSP" To ${game.address} (docs/email.md).`,
  howToOrder: (game, power) => {
    const variant = variantOf(game)!;
    const open = parsePhase(game.view.phase ?? "") ?? variant.start.phase;
    // The subject the dialect's own reader takes (readSubject), written by its inverse.
    const subject = writeSubject(game.abbr, open, power, variant);
    return subject
      ? `Orders go To ${game.address}, with the subject "${subject}" for ${phaseText(game.view.phase ?? "")} (the game's abbreviation, the year's last two digits, the season letter: ${SEASONS}; and your power letter), your secret line "Secret: ..." in the body, then one order a line.`
      : `Orders go To ${game.address}: the subject is the game's abbreviation, a space, the year's last two digits, the season letter and the power letter (${lettersText(variant)}).`;
  },
  // The letters name powers in order mail's subjects: a game played on the web has none.
  started: async (_judge, game) =>
    game.byMail ? [`Power letters for subjects: ${lettersText(variantOf(game)!)}.`] : [],
  results: async (judge, game, e, to, next) => {
    const d = e.data;
    const g = game.data!;
    const variant = g.scenario.variant;
    // One text for every recipient, as players may read it (a sequential game's schedule
    // never shows, seed 003).
    const phase = (await judge.views.phases(game.id, null))[d.index ?? -1];
    if (!phase) return [];
    // The history's "Civil disorder:" line is left out: a power whose player missed the
    // phase keeps its seat (seed 002 VII(6)); the lines below say who sent no orders.
    const history = withoutCentres(
      formatHistory(variant, { ...g.record, phases: [phase] })
        .split("\n")
        .slice(3)
        .filter((l) => !l.startsWith("Civil disorder: ")),
    );
    const corrected = e.kind === "phase_corrected";
    const rules = emgRulesFor(g.game.variant);
    const head = [
      corrected
        ? `These corrected results of ${phaseText(phase.phase)} replace those mailed earlier: the GM corrected the adjudication (${d.reason ?? "no reason given"}).`
        : `Results of ${phaseText(phase.phase)}:`,
      "",
    ];
    const tail = [...centreTable(variant, phase)];
    const nmr: string[] = [];
    for (const power of d.nmr ?? []) {
      // In an adjustment phase, a power that only could have built and did not has waived
      // its builds (seed 001 §3): that is no missed order.
      const adjusting = parsePhase(phase.phase)?.type === "A";
      if (adjusting && (phase.results[power] ?? []).length === 0) {
        nmr.push(`${powerName(variant, power)} sent no builds: they are waived.`);
      } else if (d.bots?.[power]) {
        nmr.push(
          `No orders received from ${powerName(variant, power)}: the built-in player ${d.bots[power]} played them (the game's option botTakeover).`,
        );
      } else {
        nmr.push(
          `No orders received from ${powerName(variant, power)}: ${nmrEffect(phase.phase)}.`,
        );
      }
    }
    // Powers nobody plays are in civil disorder indeed (their units hold, seed 001 §3).
    for (const power of phase.civilDisorder ?? []) {
      if ((d.nmr ?? []).includes(power)) continue;
      nmr.push(
        `${powerName(variant, power)} has no player (civil disorder): ${nmrEffect(phase.phase)}.`,
      );
    }
    if (nmr.length > 0) tail.push("", ...nmr);
    // The player list's mark: the powers built-in players play (src/judge/bots.ts).
    const botLines = game.view.seatList
      .filter((s) => s.bot)
      .map(
        (s) =>
          `  ${s.name}: the built-in player ${s.bot!.id}${s.bot!.kind === "takeover" ? ` (after missed orders; ${s.player ?? "no player"} may take it back)` : ""}`,
      );
    if (botLines.length > 0) tail.push("", "Played by built-in players:", ...botLines);
    if (next) tail.push("", next);
    const subject = corrected
      ? `corrected results of ${phaseText(phase.phase)} (replace the earlier results)`
      : `results of ${phaseText(phase.phase)}`;
    const out: { to: (typeof to)[number]; subject: string; text: string }[] = [];
    for (const p of to) {
      // The press published with this phase (seed 002 X(1)): white with its author's
      // orders, grey in its own section, never with its author's name.
      const press = (await judge.press.press(p.user, game.id)).filter(
        (m) => m.to === "all" && m.phase === phase.phase && !corrected,
      );
      const own =
        rules?.report && p.powers[0]
          ? ["", rules.report({ variant, position: g.position, power: p.powers[0] as PowerId }, [])]
          : [];
      const text = [...head, ...publishPress(variant, history, press), ...tail, ...own];
      out.push({ to: p, subject, text: text.join("\n") });
    }
    return out;
  },
};
