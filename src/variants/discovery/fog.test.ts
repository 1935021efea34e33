import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { openingTurn } from "../global/rules.ts";
import { initialState } from "../global/state.ts";
import type { AreaId, GameState } from "../global/types.ts";
import { areaDistances, areaOf } from "./areas.ts";
import { drawMap, window } from "./draw.ts";
import {
  checkSpies,
  initialKnowledge,
  nextKnowledge,
  presentAreas,
  SPY_RANGE,
  spyRange,
  visibleAreas,
} from "./fog.ts";
import { adjudicateDiscoveryTurn, discoveryReport, sightAfter } from "./game.ts";
import { discoveryGlobalMap } from "./mapdata.ts";
import { areaName } from "./names.ts";

const { map: dmap, global: gmap } = discoveryGlobalMap({ seed: 5, players: 9 });
const start: GameState = initialState(gmap, 5);
const known0 = initialKnowledge(dmap, start);

/** The area ids printed in a drawn map's cells (the first content line of each cell row). */
function drawnIds(text: string): Set<number> {
  const lines = text.split("\n");
  const ids = new Set<number>();
  for (let r = 2; r < lines.length; r += 4) {
    const line = lines[r]!;
    for (let c = 4; c < line.length; c += 6) {
      const cell = line.slice(c, c + 5).trim();
      if (/^\d+$/.test(cell)) ids.add(Number(cell));
    }
  }
  return ids;
}

describe("spy range", () => {
  it("reaches two areas from what a player knows or ends the turn in, no further", () => {
    const mine = known0[1]!;
    const d = areaDistances(dmap, mine);
    const range = spyRange(dmap, mine, []);
    for (const a of dmap.areas) {
      assert.equal(
        range.has(a.id),
        (d.get(a.id) ?? 99) <= SPY_RANGE,
        `area ${a.id} in range iff within 2`,
      );
    }
    const far = dmap.areas.find((a) => d.get(a.id) === 3)!;
    const check = checkSpies(dmap, mine, [], [far.id, mine[0]!]);
    assert.deepEqual(check.sent, [mine[0]], "the near spy goes");
    assert.equal(check.refused[0]?.area, far.id, "the far one does not");
    assert.match(check.refused[0]!.reason, /more than 2 areas/, "with the reason");
    // An area the player will end the turn in extends the range.
    const next = dmap.areas.find((a) => d.get(a.id) === 1)!;
    const beyond = dmap.areas.find(
      (a) => d.get(a.id) === 3 && areaDistances(dmap, [next.id]).get(a.id) === 2,
    )!;
    assert.ok(beyond, "an area three from home and two from a neighbour");
    assert.deepEqual(
      checkSpies(dmap, mine, [next.id], [beyond.id]).sent,
      [beyond.id],
      "in range from where it ends",
    );
  });

  it("is applied in a turn: by id or XXYY, counted against where units end, reasons as written", () => {
    const home = dmap.starts[0]!.areas[0]!; // the squadron's coast
    const d0 = areaDistances(dmap, known0[1]!);
    const sea = gmap
      .moves("squadron", home)
      .find((t) =>
        dmap.areas.some(
          (a) =>
            (d0.get(a.id) ?? 0) > SPY_RANGE && areaDistances(dmap, [t]).get(a.id) === SPY_RANGE,
        ),
      );
    assert.ok(sea !== undefined, "a move that opens new spy range");
    const dSea = areaDistances(dmap, [sea]);
    const opened = dmap.areas.find(
      (a) => (d0.get(a.id) ?? 0) > SPY_RANGE && dSea.get(a.id) === SPY_RANGE,
    )!;
    const tooFar = dmap.areas.find(
      (a) => (d0.get(a.id) ?? 0) > SPY_RANGE + 1 && (dSea.get(a.id) ?? 0) > SPY_RANGE,
    )!;
    const openedName = areaName(dmap, 1, opened.id);
    const tooFarName = areaName(dmap, 1, tooFar.id);
    const turn = adjudicateDiscoveryTurn(dmap, gmap, start, known0, {
      1: [`MO ${home} ${sea}`, `SP ${openedName} ${tooFarName} ${known0[1]![1]}`],
    });
    const sp = turn.result.results.find((r) => r.power === 1 && r.text.startsWith("SP"))!;
    assert.equal(sp.text, `SP ${openedName} ${tooFarName} ${known0[1]![1]}`, "the line as written");
    assert.equal(sp.status, "ok", "the spies in range went");
    assert.match(
      sp.reason ?? "",
      new RegExp(`not: ${tooFarName} is more than 2 areas`),
      "the far one refused by its name",
    );
    assert.ok(
      !(sp.reason ?? "").includes(`${tooFar.id} `),
      "without telling the far square's area id",
    );
    assert.deepEqual(
      [...(turn.result.spies[1] ?? [])].sort((a, b) => a - b),
      [opened.id, known0[1]![1]!].sort((a, b) => a - b),
      "spied: the opened area (by XXYY) and an own area (by id)",
    );
    assert.ok(turn.known[1]!.includes(opened.id), "a spied area becomes known");
    assert.ok(turn.known[1]!.includes(sea), "where the squadron went becomes known");
    assert.ok(!turn.known[1]!.includes(tooFar.id), "a refused spy teaches nothing");
  });

  it("allows twelve spies a turn, not thirteen, and refuses what is not an area or square", () => {
    const range = [...spyRange(dmap, known0[1]!, [])].slice(0, 13);
    assert.equal(range.length, 13, "thirteen areas in range");
    const twelve = adjudicateDiscoveryTurn(dmap, gmap, start, known0, {
      1: [`SP ${range.slice(0, 12).join(" ")}`],
    });
    assert.equal(twelve.result.spies[1]?.length, 12, "twelve spies go");
    const thirteen = adjudicateDiscoveryTurn(dmap, gmap, start, known0, {
      1: [`SP ${range.join(" ")}`],
    });
    assert.equal(thirteen.result.spies[1], undefined, "thirteen: none go");
    const r13 = thirteen.result.results.find((r) => r.power === 1)!;
    assert.equal(r13.status, "rejected", "the line is rejected");
    assert.match(r13.reason ?? "", /12 spies/, "saying twelve is the limit");
    const bad = adjudicateDiscoveryTurn(dmap, gmap, start, known0, { 1: ["SP 0000 12"] });
    const rb = bad.result.results.find((r) => r.power === 1)!;
    assert.equal(rb.status, "rejected", "a bad square rejects the line");
    assert.equal(rb.text, "SP 0000 12", "as written");
    assert.match(rb.reason ?? "", /no column 00/, "saying why");
  });
});

describe("fog of war", () => {
  it("draws exactly the known areas, in the player's names, ??? where not seen now", () => {
    const known = [...known0[1]!, ...[...spyRange(dmap, known0[1]!, [])].slice(0, 5)];
    const sight = sightAfter(dmap, { ...openingTurn(start), turn: start.turn, spies: {} }, 1);
    const text = drawMap(dmap, 1, known, sight);
    assert.deepEqual(
      [...drawnIds(text)].sort((a, b) => a - b),
      [...new Set(known)].sort((a, b) => a - b),
      "the map shows the known areas and no other",
    );
    const visible = visibleAreas(dmap, start, 1, []);
    const unseen = known.find((a) => !visible.has(a));
    if (unseen !== undefined)
      assert.ok(text.includes("???"), "an unseen known area is drawn as ???");
    const home = dmap.starts[0]!.areas[0]!;
    assert.ok(text.includes("AAS"), "player 1 (A) sees its own squadron at home");
    const col = areaName(dmap, 1, home).slice(0, 2);
    assert.ok(text.split("\n")[0]!.includes(col), "columns are headed by the player's own X");
  });

  it("draws the smallest wrapping window around what is known", () => {
    assert.deepEqual(window(10, new Set([0, 9])), [9, 0], "wraps across the edge");
    assert.deepEqual(window(10, new Set([2, 3, 5])), [2, 3, 4, 5], "a plain run");
    assert.deepEqual(window(4, new Set([0, 1, 2, 3])), [0, 1, 2, 3], "everything");
  });

  it("never shows a player an area it has not been to or spied upon, over a game", () => {
    let state = start;
    let known = known0;
    const visited = new Map<number, Set<AreaId>>();
    for (const s of dmap.starts) visited.set(s.player, new Set(presentAreas(start, s.player)));
    for (let t = 0; t < 6; t++) {
      const orders: Record<number, string[]> = {};
      for (const s of dmap.starts) {
        const mine = state.units.filter((u) => u.power === s.player);
        const lines = mine.flatMap((u) => {
          const to = gmap.moves(u.kind, u.area).filter((a) => state.owners[a] === undefined);
          return to.length > 0 ? [`MO ${u.area} ${to[(t + u.area) % to.length]}`] : [];
        });
        const range = [...spyRange(dmap, known[s.player]!, presentAreas(state, s.player))];
        lines.push(`SP ${range.slice(t, t + 4).join(" ")}`);
        orders[s.player] = lines;
      }
      const turn = adjudicateDiscoveryTurn(dmap, gmap, state, known, orders);
      for (const s of dmap.starts) {
        const v = visited.get(s.player)!;
        for (const a of presentAreas(turn.result.after, s.player)) v.add(a);
        for (const a of turn.result.spies[s.player] ?? []) v.add(a);
        const k = turn.known[s.player]!;
        assert.deepEqual(new Set(k), v, `player ${s.player}: knows exactly where it went or spied`);
        assert.ok(
          known[s.player]!.every((a) => k.includes(a)),
          "knowledge is never lost",
        );
        const report = discoveryReport(dmap, gmap, turn.result, turn.known, s.player);
        const mapText = report.slice(report.indexOf("MAP OF KNOWN AREAS"));
        const drawn = drawnIds(mapText.slice(mapText.indexOf("\n", mapText.indexOf("  A 1-")) + 1));
        assert.deepEqual(drawn, v, `player ${s.player}: the report's map shows only known areas`);
        const body = report.slice(report.indexOf("AREA "), report.indexOf("RELATIONS"));
        const rows = body
          .split("\n")
          .map((l) => /^\s*(\d+) /.exec(l)?.[1])
          .filter((x): x is string => x !== undefined)
          .map(Number);
        const allowed = new Set<AreaId>(turn.result.spies[s.player] ?? []);
        for (const a of [
          ...presentAreas(state, s.player),
          ...presentAreas(turn.result.after, s.player),
        ]) {
          allowed.add(a);
          for (const n of areaOf(dmap, a).neighbours) allowed.add(n);
        }
        assert.ok(rows.length > 0, "the body lists areas");
        for (const a of rows)
          assert.ok(allowed.has(a), `player ${s.player}: body area ${a} is one it may see`);
        for (const a of dmap.areas) {
          if (allowed.has(a.id) || v.has(a.id)) continue;
          assert.ok(
            !report.includes(`${a.id}-${areaName(dmap, s.player, a.id)}`),
            `area ${a.id} not named`,
          );
        }
      }
      assert.deepEqual(
        nextKnowledge(dmap, known, turn.result.after, turn.result.spies),
        turn.known,
        "the knowledge is the fold of the turns",
      );
      state = turn.result.after;
      known = turn.known;
    }
  });
});
