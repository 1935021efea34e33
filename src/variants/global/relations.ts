/*
 * The diplomacy of a Global Diplomacy turn (seed 004, sections 4 and 7), steps over the
 * turn's working state (turn-state.ts): calls to arms (7.5) and whether they were answered
 * (4.0: the 20% penalty), alliances, neutrality and war (7.7-7.9, each judged against the
 * relation at the start of the turn; a pair changes at most once a turn), access grants
 * (7.11).
 */

import { pairKey } from "./state.ts";
import { fail, ok, reject, type Turn } from "./turn-state.ts";
import type { CallToArms, Penalty, PowerId } from "./types.ts";

/** 7.5 calls to arms: the calls in force, this turn's made. */
export function callsToArms(t: Turn): CallToArms[] {
  const { state, turn, byOp, relNow, pname, news } = t;
  const calls: CallToArms[] = [...state.calls];
  for (const e of byOp("CA")) {
    if (e.command.op !== "CA") continue;
    const { ally, enemy } = e.command;
    if (relNow(e.power, ally) !== "alliance") reject(e, `you are not allied with ${pname(ally)}`);
    else if (relNow(e.power, enemy) !== "war") reject(e, `you are not at war with ${pname(enemy)}`);
    else {
      calls.push({ caller: e.power, ally, enemy, turn });
      news.push(`${pname(e.power)} calls ${pname(ally)} to arms against ${pname(enemy)}`);
      ok(e);
    }
  }
  return calls;
}

/** 7.7-7.9 relations: alliances (DA), neutrality (DN), war (DW). */
export function relations(t: Turn): void {
  const { turn, byOp, units, owners, relNow, relStart, changed, pname, news, declared, setRel } = t;
  const relCommand = (
    op: "DA" | "DN" | "DW",
    decide: (p: PowerId, q: PowerId) => string | null,
  ): void => {
    for (const e of byOp(op)) {
      if (e.command.op !== op) continue;
      const problems: string[] = [];
      for (const q of e.command.powers) {
        const why = decide(e.power, q);
        if (why) problems.push(`${pname(q)}: ${why}`);
      }
      if (problems.length === 0) ok(e);
      else if (problems.length === e.command.powers.length) fail(e, problems.join("; "));
      else {
        e.status = "ok";
        e.reason = `partly: ${problems.join("; ")}`;
      }
    }
  };
  relCommand("DA", (p, q) => {
    if (relStart(p, q) !== "neutral") return `you are not neutral (${relStart(p, q)})`;
    if (changed.has(pairKey(p, q)))
      return relNow(p, q) === "alliance" ? null : "relations already changed this turn";
    if (!declared("DA", q, p)) return "they did not declare an alliance with you this turn";
    setRel(p, q, "alliance");
    news.push(`${pname(p)} and ${pname(q)} are now allies`);
    return null;
  });
  relCommand("DN", (p, q) => {
    const r = relStart(p, q);
    if (r === "neutral") return "you are already neutral";
    if (changed.has(pairKey(p, q)))
      return relNow(p, q) === "neutral" ? null : "relations already changed this turn";
    if (r === "war" && !declared("DN", q, p)) {
      news.push(`${pname(p)} wants to end the war with ${pname(q)}`);
      return "ending a war needs both sides to declare neutral the same turn";
    }
    setRel(p, q, "neutral");
    news.push(
      r === "war"
        ? `${pname(p)} and ${pname(q)} have ended their war`
        : `${pname(p)} has broken the alliance with ${pname(q)}`,
    );
    return null;
  });
  relCommand("DW", (p, q) => {
    if (turn === 1) return "no war may be declared on the first turn";
    const r = relStart(p, q);
    // 7.9: war is declared on powers "which you are currently neutral with".
    if (r === "war") return "you are already at war";
    if (changed.has(pairKey(p, q)) && relNow(p, q) === "war") return null;
    if (r === "alliance")
      return "you are allied: break the alliance first (DN); war needs a turn of neutrality";
    if (changed.has(pairKey(p, q))) return "relations already changed this turn";
    setRel(p, q, "war");
    news.push(`${pname(p)} has declared war on ${pname(q)}`);
    // 5.1 tip: areas of one occupied by the other's unit pass to the unit's owner.
    for (const u of units) {
      if (!u.alive) continue;
      const o = owners.get(u.area);
      if ((o === p && u.power === q) || (o === q && u.power === p)) owners.set(u.area, u.power);
    }
    return null;
  });
}

/** 7.11 access grants (fail if the alliance was broken this turn). */
export function accessGrants(t: Turn): void {
  const { byOp, owners, relNow, relStart, pname } = t;
  t.access = t.access.filter((g) => relNow(g.grantor, g.grantee) === "alliance");
  for (const e of byOp("GA")) {
    if (e.command.op !== "GA") continue;
    const { power: q, areas } = e.command;
    if (relNow(e.power, q) !== "alliance") {
      fail(
        e,
        relStart(e.power, q) === "alliance"
          ? `the alliance with ${pname(q)} was broken this turn, so the grant fails`
          : `you are not allied with ${pname(q)}`,
      );
      continue;
    }
    if (areas !== "all") {
      const notMine = areas.filter((a) => owners.get(a) !== e.power);
      if (notMine.length > 0) {
        reject(e, `you do not own ${notMine.join(", ")}`);
        continue;
      }
    }
    t.access.push({ grantor: e.power, grantee: q, areas });
    ok(e);
  }
}

/**
 * Calls to arms (4.0, 7.5): from the turn after the call the ally must act at once. The
 * penalties carried on (5% less a turn) and incurred, and the calls still open.
 */
export function callsAnswered(
  t: Turn,
  calls: readonly CallToArms[],
): { penalties: Penalty[]; openCalls: CallToArms[] } {
  const { state, turn, relNow, relStart, pname, news, declared, setRel } = t;
  const penalties: Penalty[] = state.penalties
    .map((x) => ({ power: x.power, percent: x.percent - 5 }))
    .filter((x) => x.percent > 0);
  const openCalls: CallToArms[] = [];
  for (const c of calls) {
    if (relNow(c.ally, c.enemy) === "war") continue; // answered
    if (relNow(c.caller, c.enemy) !== "war") continue; // lapsed: the caller's war is over
    if (relNow(c.caller, c.ally) !== "alliance") {
      // The caller broke the alliance, or it broke on the call's own turn: the call lapses.
      // The ally breaking it with the caller once called is a refusal (4.0: "If they refuse,
      // your alliance with them is broken and they will suffer a 20% loss").
      const refused =
        c.turn < turn && declared("DN", c.ally, c.caller) && !declared("DN", c.caller, c.ally);
      if (refused) {
        penalties.push({ power: c.ally, percent: 20 });
        news.push(
          `${pname(c.ally)} refused the call to arms of ${pname(c.caller)} and broke the alliance`,
        );
      }
      continue;
    }
    if (c.turn >= turn) {
      openCalls.push(c);
      continue;
    }
    const before = relStart(c.ally, c.enemy);
    const answered = before === "alliance" && relNow(c.ally, c.enemy) === "neutral";
    if (answered) openCalls.push(c);
    else {
      setRel(c.caller, c.ally, "neutral");
      penalties.push({ power: c.ally, percent: 20 });
      news.push(
        `${pname(c.ally)} failed to answer the call to arms of ${pname(c.caller)}: the alliance is broken`,
      );
    }
  }
  return { penalties, openCalls };
}
