import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { formatHistory } from "../engine/history.ts";
import { readOrderSet } from "../engine/orderset.ts";
import { PositionError } from "../engine/position-json.ts";
import { findPowerByName } from "../engine/powers.ts";
import {
  currentPosition,
  type GameRecord,
  newRecord,
  playPhase,
  RECORD_FORMAT,
  RecordError,
  replayRecord,
} from "../engine/record.ts";
import { readRules } from "../engine/rules.ts";
import type { Scenario } from "../engine/scenario.ts";
import type { Phase, PowerId } from "../engine/types.ts";
import { committeeOfRecord, hasCommittee, recordScores } from "../variants/europe1935/acts.ts";
import { getVariant, variantIds } from "../variants/registry.ts";
import {
  fileVariantProblem,
  scenarioOfRecord,
  variantFromData,
} from "../variants/variant-files.ts";
import { CliError } from "./errors.ts";
import { scenarioArg } from "./scenario-arg.ts";

/*
 * A game master's command-line workflow on record files: `new` starts one, `play` adjudicates
 * the next phase from an order file, `history` prints it as a judge would, `replay` checks it.
 */

export { CliError };

/** Writes a file so that a crash leaves either the old or the new one, never half of one. */
export function writeAtomically(path: string, text: string): void {
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

export function readRecordFile(path: string): { record: GameRecord; scenario: Scenario } {
  if (!existsSync(path))
    throw new CliError(`no record file ${path}; start one with "entente new --out ${path}"`);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    throw new CliError(`${path} is not valid JSON: ${(e as Error).message}`);
  }
  const r = json as Partial<GameRecord>;
  if (typeof json !== "object" || json === null || r.format !== RECORD_FORMAT) {
    throw new CliError(
      `${path} is not an Entente game record (its "format" must be "${RECORD_FORMAT}")`,
    );
  }
  const fileProblem =
    typeof r.variant === "string"
      ? fileVariantProblem({ variant: r.variant, variantData: r.variantData })
      : null;
  if (fileProblem) throw new CliError(`${path}: ${fileProblem}`);
  if (typeof r.variant !== "string" || (!getVariant(r.variant) && r.variantData === undefined)) {
    throw new CliError(
      `${path}: unknown variant ${JSON.stringify(r.variant)}; known: ${variantIds().join(", ")}`,
    );
  }
  const scenario = scenarioOfRecord(r as GameRecord);
  if (!scenario) {
    throw new CliError(`${path}: unknown scenario ${JSON.stringify(r.scenario)} of ${r.variant}`);
  }
  const rules = readRules(r.rules);
  if (!rules.ok) throw new CliError(`${path}: ${rules.error}`);
  if (!Array.isArray(r.phases)) throw new CliError(`${path}: "phases" must be an array`);
  return { record: { ...(r as GameRecord), rules: rules.rules }, scenario };
}

/**
 * Reads an order file: a JSON object of power: [orders], or text as in a mail body: a power's
 * name on a line of its own before that power's orders, one per line; other lines ignored.
 */
export function readOrderFile(
  text: string,
  scenario: Scenario,
  phase?: Phase,
): Map<PowerId, string[]> {
  const trimmed = text.trim();
  const powers = scenario.variant.powers;
  const findPower = (word: string) => {
    const id = findPowerByName(powers, word);
    return powers.find((p) => p.id === id);
  };
  const out = new Map<PowerId, string[]>();
  if (trimmed.startsWith("{")) {
    let json: unknown;
    try {
      json = JSON.parse(trimmed);
    } catch (e) {
      throw new CliError(`the order file is not valid JSON: ${(e as Error).message}`);
    }
    for (const [k, v] of Object.entries(json as Record<string, unknown>)) {
      const p = findPower(k);
      if (!p)
        throw new CliError(
          `order file: unknown power "${k}"; use one of ${powers.map((x) => x.id).join(", ")}`,
        );
      if (!Array.isArray(v) || v.some((o) => typeof o !== "string")) {
        throw new CliError(`order file: the orders of ${k} must be a list of strings`);
      }
      out.set(p.id, [...(out.get(p.id) ?? []), ...(v as string[])]);
    }
    return out;
  }
  // Text: the same reader as for a mail body (power headers, chatter, "Final").
  const set = readOrderSet(text, scenario.variant, null, phase ? { phase } : {});
  // A sheet dated for another phase than the record's next is refused whole.
  if (set.dateError) throw new CliError(`order file: ${set.dateError}`);
  const stray = set.unassigned[0];
  if (stray !== undefined) {
    throw new CliError(
      `order file: "${stray}" comes before any power's name; put e.g. "${powers[0]!.name}:" on the line above`,
    );
  }
  return new Map([...set.orders].map(([p, list]) => [p, [...list]]));
}

/** A variant data file's content, checked (`new --variant-file`). */
function readVariantFile(path: string): { data: Record<string, unknown>; scenario: Scenario } {
  if (!existsSync(path)) throw new CliError(`no variant file ${path}`);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    throw new CliError(`${path} is not valid JSON: ${(e as Error).message}`);
  }
  const r = variantFromData(json);
  if (!r.ok) throw new CliError(`${path} is not a valid variant:\n  ${r.errors.join("\n  ")}`);
  const data = json as Record<string, unknown>;
  return { data, scenario: scenarioOfRecord({ variant: r.variant.id, variantData: data })! };
}

export function cmdNew(opts: {
  variant: string;
  variantFile?: string;
  players?: string;
  rules?: string;
  seed?: string;
  out?: string;
  /** With --out: the summary as a JSON line. */
  json?: boolean;
}): string {
  const file = opts.variantFile ? readVariantFile(opts.variantFile) : null;
  if (file && opts.players !== undefined && opts.players !== file.scenario.id)
    throw new CliError(
      `a variant from a file is played one power per seat: --players ${file.scenario.id} (or leave it out)`,
    );
  const variant = file ? file.scenario.variant : getVariant(opts.variant);
  if (!variant)
    throw new CliError(`unknown variant "${opts.variant}"; known: ${variantIds().join(", ")}`);
  const scenario = file ? file.scenario : scenarioArg(opts.variant, opts.players);
  const rules = readRules(opts.rules, variant.rules);
  if (!rules.ok) throw new CliError(rules.error);
  const seed = opts.seed === undefined ? 1 : Number(opts.seed);
  if (!Number.isInteger(seed) || seed < 0)
    throw new CliError(`--seed must be a whole number, not ${opts.seed}`);
  const record = newRecord(scenario, rules.rules, seed, file?.data);
  const text = `${JSON.stringify(record, null, 1)}\n`;
  if (opts.out) {
    if (existsSync(opts.out))
      throw new CliError(`${opts.out} exists; a new game will not overwrite it`);
    writeAtomically(opts.out, text);
    if (opts.json)
      return `${JSON.stringify({ out: opts.out, variant: scenario.variant.id, scenario: scenario.id, seed, phase: record.start.phase })}\n`;
    return `new ${scenario.variant.name} game (${scenario.description}) written to ${opts.out}\n`;
  }
  return text;
}

export function cmdPlay(
  recordPath: string,
  ordersPath: string,
  out?: string,
  json?: boolean,
): string {
  const { record, scenario } = readRecordFile(recordPath);
  if (!existsSync(ordersPath)) throw new CliError(`no order file ${ordersPath}`);
  let next: GameRecord;
  try {
    // The phase the sheet may be dated for: the record's next (its position read here, so a
    // position the variant refuses is reported as one, below).
    const phase = currentPosition(scenario, record).phase;
    const orders = readOrderFile(readFileSync(ordersPath, "utf8"), scenario, phase);
    next = playPhase(scenario, record, orders);
  } catch (e) {
    if (e instanceof RecordError) throw new CliError(e.message);
    if (e instanceof PositionError) throw new CliError(`${recordPath}: the position: ${e.message}`);
    throw e;
  }
  writeAtomically(out ?? recordPath, `${JSON.stringify(next, null, 1)}\n`);
  // --json: the phase just played as the record stores it (orders, results, next position).
  if (json) return `${JSON.stringify({ record: out ?? recordPath, played: next.phases.at(-1) })}\n`;
  const last = { ...next, phases: next.phases.slice(-1) };
  return formatHistory(scenario.variant, last).split("\n").slice(3).join("\n");
}

export function cmdHistory(recordPath: string): string {
  const { record, scenario } = readRecordFile(recordPath);
  return formatHistory(scenario.variant, record);
}

/**
 * `entente replay`: the record played again must come out the same. `json` gives the
 * summary as one JSON line; `onPhase` is told how many phases have been checked.
 */
export function cmdReplay(
  recordPath: string,
  opts: { json?: boolean; onPhase?: (checked: number, total: number) => void } = {},
): { ok: boolean; text: string } {
  const { record, scenario } = readRecordFile(recordPath);
  const total = record.phases.length;
  const check = replayRecord(scenario, record, (n) => opts.onPhase?.(n, total));
  const json = (o: Record<string, unknown>) => `${JSON.stringify({ record: recordPath, ...o })}\n`;
  if (!check.ok)
    return {
      ok: false,
      text: opts.json
        ? json({ ok: false, phases: total, phase: check.phase, problem: check.problem })
        : `${recordPath}: phase ${check.phase}: ${check.problem}\n`,
    };
  if (opts.json && !hasCommittee(scenario.variant))
    return { ok: true, text: json({ ok: true, phases: total }) };
  let text = `${recordPath}: ${record.phases.length} phases replay exactly\n`;
  const variant = scenario.variant;
  if (hasCommittee(variant)) {
    // The committee's acts must hold at their points in the game; the scores follow.
    const c = committeeOfRecord(variant, record);
    const refused = (errors: readonly string[]) => ({
      ok: false,
      text: opts.json
        ? json({ ok: false, phases: total, problem: `committee: ${errors.join("; ")}` })
        : `${recordPath}: committee: ${errors.join("; ")}\n`,
    });
    if (c.errors.length > 0) return refused(c.errors);
    const s = recordScores(variant, record, c.committee);
    if (!s.ok) return refused(s.errors);
    if (opts.json)
      return {
        ok: true,
        text: json({
          ok: true,
          phases: total,
          victoryPoints: Object.fromEntries(s.scores.map((x) => [x.power, x.total])),
          ...(s.winner ? { leader: s.winner } : { draw: s.leaders }),
        }),
      };
    const table = s.scores.map((x) => `${x.power} ${x.total}`).join(", ");
    text += `victory points: ${table}; ${s.winner ? `${s.winner} leads` : `a draw between ${s.leaders.join(", ")}`}\n`;
  }
  return { ok: true, text };
}
