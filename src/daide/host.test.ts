/*
 * The DAIDE server over real TCP, with the test client (testing.ts): a whole conversation from
 * the initial message to OFF, a dropped connection restored by IAM, and every error path.
 * Every wait is bounded; every host and socket is closed whether a test passes or fails.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { holdBot, randomBot } from "../bots/bot.ts";
import { getScenario } from "../variants/scenarios.ts";
import { diplomacyMessage, ERROR, frame, initialMessage, MESSAGE } from "./framing.ts";
import { testHosts } from "./host-testing.ts";
import type { TestClient } from "./testing.ts";
import { tok } from "./tokens.ts";

const { start, join, open } = testHosts({ bots: Array.from({ length: 6 }, () => randomBot) });

/** NME, the map, YES (MAP): answers the HLO's passcode. */
async function seat(c: TestClient, name = "tester"): Promise<number> {
  c.send(`NME ('${name}') ('1.0')`);
  assert.equal(await c.text("YES"), `YES (NME ('${name}') ('1.0'))`);
  assert.equal(await c.text("MAP"), "MAP ('standard')");
  c.send("YES (MAP ('standard'))");
  const hlo = await c.text("HLO");
  const m = /^HLO \(AUS\) \((\d+)\) \(\(LVL 0\)\)$/.exec(hlo);
  assert.ok(m, hlo);
  return Number(m[1]);
}

/**
 * Plays the client's power to the end: holds in movement, disbands in retreats, waives
 * builds and removes the first units asked for; answers the messages of the end.
 */
async function playOut(c: TestClient): Promise<string[]> {
  const end: string[] = [];
  c.send("GOF");
  for (;;) {
    const m = await c.next((x) => /^(NOW|DRW|SLO)/.test(x.text ?? ""), 20_000);
    const text = m.text!;
    if (!text.startsWith("NOW")) {
      end.push(text);
      end.push(await c.text("SMR"));
      end.push(await c.text("OFF"));
      await c.closedByServer();
      return end;
    }
    c.send("GOF");
  }
}

describe("a whole game over TCP", () => {
  test("NME to OFF: map, orders with THX and MIS, ORD results, the end at --until", async () => {
    const { host, port } = await start();
    const c = await join(port, host);
    const passcode = await seat(c);
    assert.ok(passcode > 0);
    assert.match(await c.text("SCO"), /^SCO \(AUS BUD TRI VIE\) .* \(UNO BEL BUL/);
    assert.match(
      await c.text("NOW"),
      /^NOW \(SPR 1901\) \(AUS AMY VIE\) \(AUS AMY BUD\) \(AUS FLT TRI\)/,
    );
    c.send("MDF");
    const mdf = await c.text("MDF");
    assert.ok(mdf.startsWith("MDF (AUS ENG FRA GER ITA RUS TUR) (((AUS BUD TRI VIE)"), mdf);

    c.send("SUB (SPR 1901) ((AUS AMY BUD) MTO SER) ((AUS AMY VIE) HLD)");
    assert.equal(await c.text("THX"), "THX ((AUS AMY BUD) MTO SER) (MBV)");
    assert.equal(await c.text("THX"), "THX ((AUS AMY VIE) HLD) (MBV)");
    assert.equal(await c.text("MIS"), "MIS (AUS FLT TRI)");
    c.send("MIS");
    assert.equal(await c.text("MIS"), "MIS (AUS FLT TRI)");
    c.send("NOT (GOF)");
    assert.equal(await c.text("YES"), "YES (NOT (GOF))");
    c.send("SUB ((AUS FLT TRI) HLD)");
    assert.equal(await c.text("THX"), "THX ((AUS FLT TRI) HLD) (MBV)");
    assert.equal(await c.text("MIS"), "MIS");
    // Complete, but NOT (GOF) holds the phase until GOF.
    c.send("GOF");
    assert.equal(await c.text("YES"), "YES (GOF)");
    assert.equal(
      await c.text("ORD (SPR 1901) ((AUS AMY BUD)"),
      "ORD (SPR 1901) ((AUS AMY BUD) MTO SER) (SUC)",
    );
    // Every unit's result is told, the built-in players' too.
    const ords = c.log.filter((m) => m.text?.startsWith("ORD (SPR 1901)")).length;
    assert.equal(ords >= 3, true);
    assert.match(await c.text("NOW"), /^NOW \(FAL 1901\) .*\(AUS AMY SER\)/);
    c.send("HST (SPR 1901)");
    assert.equal(
      await c.text("ORD (SPR 1901) ((AUS AMY BUD)"),
      "ORD (SPR 1901) ((AUS AMY BUD) MTO SER) (SUC)",
    );
    c.send("TME");
    assert.equal(await c.text("REJ"), "REJ (TME)", "no deadline in this game");
    const end = await playOut(c);
    assert.equal(end[0], "DRW");
    assert.match(
      end[1]!,
      /^SMR \(SPR 1902\) \(AUS \('tester'\) \('1.0'\) \d+\) \(ENG \('random'\) \('entente'\) \d+\)/,
    );
    assert.equal(end[2], "OFF");
    const summary = await host.done;
    assert.equal(summary.result.kind, "draw");
    assert.equal(summary.endPhase, "S1902M");
    assert.equal(summary.powers[0]!.client, "tester");
    assert.equal(summary.powers[1]!.bot, "random");
    assert.equal(summary.phases, summary.record.phases.length);
    assert.ok(summary.phases >= 2);
  });

  test("a draw all survivors ask for ends the game; observers watch", async () => {
    const { host, port } = await start({ bots: [], until: null, moveTime: 0 });
    const players: TestClient[] = [];
    for (let i = 0; i < 7; i++) {
      const c = await join(port, host);
      c.send(`NME ('p${i}') ('1')`);
      await c.text("MAP");
      players.push(c);
    }
    const late = await join(port, host);
    late.send("NME ('late') ('1')");
    assert.equal(await late.text("REJ"), "REJ (NME ('late') ('1'))", "every seat is taken");
    const watcher = await join(port, host);
    watcher.send("OBS");
    assert.equal(await watcher.text("YES"), "YES (OBS)");
    watcher.send("YES (MAP ('standard'))");
    for (const c of players) c.send("YES (MAP ('standard'))");
    for (const c of players) await c.text("HLO");
    await watcher.text("NOW (SPR 1901)");
    for (const c of players.slice(0, 6)) {
      c.send("DRW");
      assert.equal(await c.text("YES"), "YES (DRW)");
    }
    players[0]!.send("NOT (DRW)");
    assert.equal(await players[0]!.text("YES"), "YES (NOT (DRW))");
    players[6]!.send("DRW");
    await players[6]!.text("YES (DRW)");
    players[0]!.send("DRW");
    await players[0]!.text("YES (DRW)");
    for (const c of [...players, watcher]) {
      assert.equal(await c.text("DRW"), "DRW");
      assert.match(await c.text("SMR"), /^SMR \(SPR 1901\) \(AUS \('p0'\) \('1'\) 3\)/);
      assert.equal(await c.text("OFF"), "OFF");
    }
    const s = await host.done;
    assert.deepEqual(s.result, {
      kind: "draw",
      reason: "agreed",
      powers: ["AUS", "ENG", "FRA", "GER", "ITA", "RUS", "TUR"],
    });
    assert.equal(s.phases, 0);
  });
});

describe("a map of its own", () => {
  test("the four-player game: an RM names the seats; a seat orders both its powers' units", async () => {
    const scenario = getScenario("classical", "4")!;
    const { host, port } = await start({
      scenario,
      bots: [holdBot, holdBot, holdBot],
    });
    const c = await open(port, host);
    c.raw(initialMessage());
    const rm = await c.next((m) => m.type === MESSAGE.RM);
    assert.equal(rm.entries!.length, 4 + 75);
    assert.deepEqual(
      rm.entries!.slice(0, 4).map((e) => e.name),
      ["AFU", "ENG", "GTE", "IRT"],
    );
    assert.equal(rm.entries!.find((e) => e.name === "STP")?.token, 0x574a);
    c.send("NME ('four') ('1')");
    assert.equal(await c.text("MAP"), "MAP ('classical-4')");
    c.send("MDF");
    assert.match(
      await c.text("MDF"),
      /^MDF \(AFU ENG GTE IRT\) \(\(\(AFU BRE BUD MAR PAR TRI VIE\)/,
    );
    c.send("YES (MAP ('classical-4'))");
    assert.match(await c.text("HLO"), /^HLO \(AFU\)/);
    const now = await c.text("NOW (SPR 1901)");
    assert.match(now, /\(AFU AMY VIE\).*\(AFU AMY PAR\)/);
    c.send("SUB ((AFU AMY PAR) MTO BUR) ((AFU AMY VIE) MTO GAL) ((IRT AMY ROM) HLD)");
    assert.equal(await c.text("THX"), "THX ((AFU AMY PAR) MTO BUR) (MBV)");
    assert.equal(await c.text("THX"), "THX ((AFU AMY VIE) MTO GAL) (MBV)");
    assert.equal(await c.text("THX"), "THX ((IRT AMY ROM) HLD) (NYU)");
    assert.match(
      await c.text("MIS"),
      /^MIS \(AFU AMY BUD\) \(AFU FLT TRI\) \(AFU FLT BRE\) \(AFU AMY MAR\)$/,
    );
    c.send("GOF");
    assert.equal(
      await c.text("ORD (SPR 1901) ((AFU AMY PAR)"),
      "ORD (SPR 1901) ((AFU AMY PAR) MTO BUR) (SUC)",
    );
    await playOut(c);
    const s = await host.done;
    assert.deepEqual(s.powers[0]!.plays, ["austria", "france"]);
    assert.equal(s.map, "classical-4");
  });
});

describe("time limits", () => {
  test("a phase whose time runs out is adjudicated without the missing orders; TME tells the time", async () => {
    const { host, port } = await start({ moveTime: 1, until: 1902 });
    const c = await join(port, host);
    c.send("NME ('slow') ('1')");
    await c.text("MAP");
    c.send("YES (MAP ('standard'))");
    assert.match(await c.text("HLO"), /\(\(LVL 0\) \(MTL 1\) \(RTL 1\) \(BTL 1\)\)$/);
    await c.text("NOW (SPR 1901)");
    c.send("TME");
    assert.match(await c.text("TME"), /^TME \([01]\)$/);
    c.send("TME (0)");
    assert.equal(await c.text("YES"), "YES (TME (0))");
    // Nothing ordered: the units hold (civil disorder) when the second is up.
    assert.equal(
      await c.text("ORD (SPR 1901) ((AUS AMY VIE)"),
      "ORD (SPR 1901) ((AUS AMY VIE) HLD) (SUC)",
    );
    await c.text("DRW");
    const s = await host.done;
    assert.ok(s.timedOut >= 2, `phases timed out: ${s.timedOut}`);
    assert.equal(s.endPhase, "S1902M");
  });
});

describe("a dropped connection keeps its seat", () => {
  test("CCD to the others, IAM with the passcode brings it back (NOT (CCD)); a wrong one is refused", async () => {
    const { host, port } = await start({ bots: Array.from({ length: 6 }, () => holdBot) });
    const c = await join(port, host);
    const passcode = await seat(c);
    const watcher = await join(port, host);
    await watcher.observe();
    await watcher.text("NOW (SPR 1901)");
    c.close();
    assert.equal(await watcher.text("CCD"), "CCD (AUS)");

    const wrong = await join(port, host);
    wrong.send(`IAM (AUS) (${(passcode % 8000) + 1})`);
    assert.equal(await wrong.text("REJ"), `REJ (IAM (AUS) (${(passcode % 8000) + 1}))`);
    const back = await join(port, host);
    back.send(`IAM (AUS) (${passcode})`);
    assert.equal(await back.text("YES"), `YES (IAM (AUS) (${passcode}))`);
    assert.equal(await watcher.text("NOT"), "NOT (CCD (AUS))");
    back.send("HLO");
    assert.equal(await back.text("HLO"), `HLO (AUS) (${passcode}) ((LVL 0))`);
    back.send("NOW");
    assert.match(await back.text("NOW"), /^NOW \(SPR 1901\)/);
    const again = await join(port, host);
    again.send(`IAM (AUS) (${passcode})`);
    assert.match(await again.text("REJ"), /^REJ \(IAM/, "the seat is taken again");
    const end = await playOut(back);
    assert.deepEqual(end.slice(0, 1), ["DRW"]);
    const s = await host.done;
    assert.equal(s.powers[0]!.client, "tester");
  });
});

describe("hostile clients get the protocol's answer and harm nothing", () => {
  test("framing faults: EM with the right code, then the connection is closed", async () => {
    const { host, port } = await start({ initialTimeout: 300 });
    const connect = () => open(port, host);
    const cases: [string, (c: TestClient) => void, number][] = [
      ["wrong magic number", (c) => c.raw(initialMessage(1, 0x1234)), ERROR.wrongMagic],
      ["wrong byte order", (c) => c.raw(initialMessage(1, 0x10da)), ERROR.wrongEndian],
      ["another version", (c) => c.raw(initialMessage(2)), ERROR.versionIncompatible],
      ["a DM first", (c) => c.raw(diplomacyMessage([tok("NME")])), ERROR.notFirstMessage],
      ["no IM in time", () => {}, ERROR.timerPopped],
    ];
    for (const [what, act, code] of cases) {
      const c = await connect();
      act(c);
      const em = await c.next((m) => m.type === MESSAGE.EM);
      assert.equal(em.code, code, what);
      await c.closedByServer();
    }
    const after: [string, Buffer, number][] = [
      ["a second IM", initialMessage(), ERROR.moreThanOneIM],
      ["an RM from a client", frame(MESSAGE.RM), ERROR.rmFromClient],
      ["an unknown message type", frame(9), ERROR.unknownMessage],
      ["an unknown token", diplomacyMessage([0x5fff]), ERROR.invalidToken],
      ["an odd length", frame(MESSAGE.DM, Buffer.from([0x48])), ERROR.shorterThanExpected],
    ];
    for (const [what, bytes, code] of after) {
      const c = await join(port, host);
      c.raw(bytes);
      const em = await c.next((m) => m.type === MESSAGE.EM);
      assert.equal(em.code, code, what);
      await c.closedByServer();
    }
  });

  test("unreadable and out-of-turn messages: PRN, HUH with ERR, REJ; the others play on", async () => {
    const { host, port } = await start({ bots: Array.from({ length: 6 }, () => holdBot) });
    const bystander = await join(port, host);
    const c = await join(port, host);
    c.raw(diplomacyMessage([tok("NME"), tok("("), 0x4b41]));
    assert.match(await c.text("PRN"), /^PRN/);
    c.send("NME 'x'");
    assert.equal(await c.text("HUH"), "HUH (NME ERR 'x')");
    c.send("SUB ((AUS AMY VIE) HLD)");
    assert.equal(await c.text("REJ"), "REJ (SUB ((AUS AMY VIE) HLD))", "no seat, no game yet");
    for (const m of ["HLO", "NOW", "SCO", "GOF", "ORD", "HST (SPR 1901)"]) {
      c.send(m);
      assert.equal(await c.text("REJ"), `REJ (${m})`, m);
    }
    c.send("IAM (AUS) (1)");
    assert.equal(await c.text("REJ"), "REJ (IAM (AUS) (1))", "the game has not started");
    c.send("PRP (PCE (AUS ENG))");
    assert.match(await c.text("HUH"), /^HUH \(ERR PRP/, "no press at level 0");
    c.send("FLT");
    assert.equal(await c.text("HUH"), "HUH (ERR FLT)");
    // The bystander takes the seat and plays: nothing above touched the game.
    const passcode = await seat(bystander);
    assert.ok(passcode > 0);
    bystander.send("SUB (FAL 1901) ((AUS AMY VIE) HLD)");
    assert.equal(
      await bystander.text("REJ"),
      "REJ (SUB (FAL 1901) ((AUS AMY VIE) HLD))",
      "the wrong turn",
    );
    bystander.send("SUB ((GER AMY BER) MTO SIL) ((AUS AMY BUD) MTO MUN) ((AUS AMY VIE) RTO BOH)");
    assert.equal(await bystander.text("THX"), "THX ((GER AMY BER) MTO SIL) (NYU)");
    assert.equal(await bystander.text("THX"), "THX ((AUS AMY BUD) MTO MUN) (FAR)");
    assert.equal(await bystander.text("THX"), "THX ((AUS AMY VIE) RTO BOH) (NRS)");
    assert.equal(await bystander.text("MIS"), "MIS (AUS AMY VIE) (AUS AMY BUD) (AUS FLT TRI)");
    bystander.send("SUB ((AUS AMY VIE) HLD) ((AUS AMY BUD) FOO)".replace("FOO", "NME"));
    assert.equal(await bystander.text("THX"), "THX ((AUS AMY VIE) HLD) (MBV)");
    assert.equal(
      await bystander.text("HUH"),
      "HUH (SUB ((AUS AMY VIE) HLD) ERR ((AUS AMY BUD) NME))",
    );
    bystander.send("NME ('again') ('1')");
    assert.equal(await bystander.text("REJ"), "REJ (NME ('again') ('1'))");
    const end = await playOut(bystander);
    assert.equal(end[0], "DRW");
    await host.done;
  });
});
