/*
 * Press (level 10) in `entente daide host` games over real TCP with the test client: SND and
 * FRM between clients (nobody else reads it), the server's answers (YES, REJ, HUH with ERR,
 * CCD for a recipient not connected), level 0 refusing press; and the built-in players'
 * seats chosen (--bot-powers). Every host and socket is closed whether a test passes or not.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { holdBot } from "../bots/bot.ts";
import { readPosition } from "../engine/position-json.ts";
import { readRules } from "../engine/rules.ts";
import { standardScenario } from "../engine/scenario.ts";
import { classical } from "../variants/classical/index.ts";
import { getScenario } from "../variants/scenarios.ts";
import { DaideHost } from "./host.ts";
import { testHosts } from "./host-testing.ts";
import { fromText, tree } from "./language.ts";
import { daideMap } from "./mapdef.ts";
import { markFault, pressFault, pressGloss } from "./press.ts";
import type { TestClient } from "./testing.ts";
import { tok } from "./tokens.ts";

const { start, join } = testHosts({
  bots: Array.from({ length: 5 }, () => holdBot),
  level: 10,
});

/** NME and YES (MAP): the HLO's text once the game starts (every client seated). */
async function sit(c: TestClient, name: string): Promise<void> {
  c.send(`NME ('${name}') ('1')`);
  await c.text("MAP");
  c.send("YES (MAP ('standard'))");
}

describe("press at level 10 between DAIDE clients", () => {
  test("SND reaches its recipients alone as FRM; YES, REJ, HUH and CCD as the protocol says", async () => {
    const { host, port } = await start();
    const aus = await join(port, host);
    const eng = await join(port, host);
    const obs = await join(port, host);
    await sit(aus, "a");
    await sit(eng, "e");
    await obs.observe();
    assert.match(await aus.text("HLO"), /^HLO \(AUS\) \(\d+\) \(\(LVL 10\)\)$/);
    assert.match(await eng.text("HLO"), /^HLO \(ENG\) \(\d+\) \(\(LVL 10\)\)$/);
    await aus.text("NOW (SPR 1901)");
    await obs.text("NOW (SPR 1901)");

    aus.send("SND (ENG) (PRP (PCE (AUS ENG)))");
    assert.equal(await aus.text("YES"), "YES (SND (ENG) (PRP (PCE (AUS ENG))))");
    assert.equal(await eng.text("FRM"), "FRM (AUS) (ENG) (PRP (PCE (AUS ENG)))");
    eng.send("SND (SPR 1901) (AUS) (YES (PRP (PCE (AUS ENG))))");
    assert.equal(await eng.text("YES"), "YES (SND (SPR 1901) (AUS) (YES (PRP (PCE (AUS ENG)))))");
    assert.equal(await aus.text("FRM"), "FRM (ENG) (AUS) (YES (PRP (PCE (AUS ENG))))");
    aus.send("SND (ENG) (PRP (ALY (AUS ENG) VSS (RUS TUR)))");
    assert.equal(await eng.text("FRM"), "FRM (AUS) (ENG) (PRP (ALY (AUS ENG) VSS (RUS TUR)))");
    aus.send("SND (ENG) (PRP (DRW))");
    assert.equal(await eng.text("FRM"), "FRM (AUS) (ENG) (PRP (DRW))");
    eng.send("SND (AUS) (BWX (PRP (DRW)))");
    assert.equal(await aus.text("FRM"), "FRM (ENG) (AUS) (BWX (PRP (DRW)))");

    // Level 20 (XDO), a power that is not one, the sender itself, a bad arrangement: HUH.
    aus.send("SND (ENG) (PRP (XDO ((AUS AMY VIE) HLD)))");
    assert.equal(await aus.text("HUH"), "HUH (SND (ENG) (PRP (ERR XDO ((AUS AMY VIE) HLD))))");
    aus.send("SND (AUS) (PRP (PCE (AUS ENG)))");
    assert.equal(await aus.text("HUH"), "HUH (SND (ERR AUS) (PRP (PCE (AUS ENG))))");
    aus.send("SND (ENG) (PRP (PCE (AUS VIE)))");
    assert.equal(await aus.text("HUH"), "HUH (SND (ENG) (PRP (PCE (AUS ERR VIE))))");
    aus.send("SND (ENG) (PRP (ALY (AUS) (ENG)))");
    assert.equal(await aus.text("HUH"), "HUH (SND (ENG) (PRP (ALY (AUS) ERR (ENG))))");
    // A built-in player reads no press: REJ, and nobody is sent it.
    aus.send("SND (ENG FRA) (PRP (PCE (AUS ENG FRA)))");
    assert.equal(await aus.text("REJ"), "REJ (SND (ENG FRA) (PRP (PCE (AUS ENG FRA))))");
    // An observer may not send press.
    obs.send("SND (AUS) (PRP (DRW))");
    assert.equal(await obs.text("REJ"), "REJ (SND (AUS) (PRP (DRW)))");

    // Nobody else read the press: the observer saw none of it (ADM marks the end).
    aus.send("ADM ('a') ('done')");
    await obs.text("ADM");
    assert.deepEqual(
      obs.log.filter((m) => m.text?.startsWith("FRM")),
      [],
      "the observer reads no press",
    );
    // The one FRM sent to nobody else: ENG read only what was for ENG.
    assert.equal(eng.log.filter((m) => m.text?.startsWith("FRM")).length, 3);

    // A recipient whose client dropped: CCD (power), and the message is not sent.
    eng.close();
    assert.equal(await aus.text("CCD"), "CCD (ENG)");
    const sent = () => aus.log.filter((m) => m.text === "YES (SND (ENG) (PRP (DRW)))").length;
    assert.equal(sent(), 1);
    aus.send("SND (ENG) (PRP (DRW))");
    assert.equal(await aus.text("CCD"), "CCD (ENG)");
    aus.send("ADM ('a') ('after')");
    await aus.text("ADM ('a') ('after')");
    assert.equal(sent(), 1, "no YES: the message was not sent");
  });

  test("level 0 (the default): HLO says LVL 0 and SND is refused (REJ)", async () => {
    const { host, port } = await start({
      level: 0,
      bots: Array.from({ length: 6 }, () => holdBot),
    });
    const c = await join(port, host);
    await sit(c, "quiet");
    assert.match(await c.text("HLO"), /^HLO \(AUS\) \(\d+\) \(\(LVL 0\)\)$/);
    await c.text("NOW");
    c.send("SND (ENG) (PRP (PCE (AUS ENG)))");
    assert.equal(await c.text("REJ"), "REJ (SND (ENG) (PRP (PCE (AUS ENG))))");
  });
});

describe("the level 10 grammar", () => {
  const names = daideMap(getScenario("classical")!).names;
  const read = (text: string) => {
    const tokens = fromText(text, names);
    const stack: unknown[][] = [[]];
    for (const t of tokens) {
      if (t === tok("(")) stack.push([]);
      else if (t === tok(")")) {
        const done = stack.pop()!;
        stack[stack.length - 1]!.push(done);
      } else stack[stack.length - 1]!.push(t);
    }
    return stack[0] as Parameters<typeof pressFault>[0];
  };
  const powers = new Set(
    ["AUS", "ENG", "FRA", "GER", "ITA", "RUS", "TUR"].map((p) => names.tokenOf(p)!),
  );
  const check = (text: string) => {
    const m = read(text);
    const f = pressFault(m, (x) => powers.has(x));
    return f === null ? "ok" : markFault(m, f);
  };
  test("level 10 press is read, anything else is marked where it stops", () => {
    for (const ok of [
      "PRP (PCE (AUS ENG))",
      "PRP (ALY (AUS ENG) VSS (FRA))",
      "PRP (DRW)",
      "PRP (DRW (AUS ENG))",
      "PRP (SLO (ENG))",
      "PRP (NOT (PCE (AUS ENG)))",
      "PRP (NAR (DRW))",
      "CCL (PRP (PCE (AUS ENG)))",
      "YES (PRP (DRW))",
      "REJ (PRP (DRW))",
      "BWX (PRP (DRW))",
      "HUH (ERR PRP (XDO))",
      "TRY (PRP PCE ALY VSS)",
      "TRY ()",
    ])
      assert.equal(check(ok), "ok", ok);
    assert.deepEqual(check("PRP (PCE ())"), read("PRP (PCE (ERR))"));
    assert.deepEqual(check("PRP (SLO (ENG FRA))"), read("PRP (SLO (ENG ERR FRA))"));
    assert.deepEqual(check("PRP (PCE (AUS)) (DRW)"), read("PRP (PCE (AUS)) ERR (DRW)"));
    assert.deepEqual(check("FCT (PCE (AUS ENG))"), read("ERR FCT (PCE (AUS ENG))"));
    assert.deepEqual(check("PRP"), read("PRP ERR"));
  });
});

describe("the built-in players' seats", () => {
  test("--bot-powers names them; the client gets the seat left", async () => {
    const { host, port } = await start({
      bots: Array.from({ length: 6 }, () => holdBot),
      botPowers: ["AUS", "ENG", "fra", "GER", "ITA", "RUS"],
    });
    const c = await join(port, host);
    await sit(c, "turk");
    assert.match(await c.text("HLO"), /^HLO \(TUR\)/);
  });

  test("--bot-powers random draws them with the seed: the same seed, the same seats", async () => {
    const seen = new Map<number, string>();
    for (const seed of [1, 2, 3, 4, 1]) {
      const { host, port } = await start({
        seed,
        bots: Array.from({ length: 6 }, () => holdBot),
        botPowers: "random",
      });
      const c = await join(port, host);
      await sit(c, "drawn");
      const power = /^HLO \((\w+)\)/.exec(await c.text("HLO"))![1]!;
      if (seen.has(seed)) assert.equal(power, seen.get(seed), `seed ${seed} again`);
      seen.set(seed, power);
      c.close();
      await host.close();
    }
    assert.ok(new Set(seen.values()).size > 1, `always ${[...seen.values()]}`);
  });

  test("a power that is no seat, or one given twice, or too few: a clear error", () => {
    const scenario = getScenario("classical")!;
    const rules = readRules(undefined, scenario.variant.rules);
    if (!rules.ok) throw new Error(rules.error);
    const make = (botPowers: string[]) =>
      new DaideHost({
        scenario,
        rules: rules.rules,
        seed: 1,
        moveTime: 0,
        until: null,
        bots: [holdBot, holdBot],
        botPowers,
        port: 0,
      });
    assert.throws(() => make(["TUR", "XXX"]), /"XXX" is not a seat of standard: give one of AUS/);
    assert.throws(() => make(["TUR", "tur"]), /TUR is given twice/);
    assert.throws(() => make(["TUR"]), /1 powers given for 2 built-in players/);
  });
});

describe("press to a power out of the game", () => {
  test("OUT (power), and the message is sent to nobody", async () => {
    // Italy starts with no unit and no centre: it is out of the game from the first phase.
    const board = readPosition(
      {
        phase: "S1901M",
        units: { austria: ["A vie"], england: ["F lon"], turkey: ["A con"] },
        centers: { austria: ["vie"], england: ["lon"], turkey: ["con"] },
      },
      classical,
    );
    const { host, port } = await start({
      scenario: standardScenario({ ...classical, start: board }),
      bots: Array.from({ length: 5 }, () => holdBot),
    });
    const aus = await join(port, host);
    const eng = await join(port, host);
    await sit(aus, "a");
    await sit(eng, "e");
    await aus.text("NOW (SPR 1901)");
    aus.send("SND (ENG ITA) (PRP (PCE (AUS ENG ITA)))");
    assert.equal(await aus.text("OUT"), "OUT (ITA)");
    aus.send("SND (ENG) (PRP (PCE (AUS ENG)))");
    assert.equal(await aus.text("YES"), "YES (SND (ENG) (PRP (PCE (AUS ENG))))");
    // England's first FRM is the second message: the first was sent to nobody.
    assert.equal(await eng.text("FRM"), "FRM (AUS) (ENG) (PRP (PCE (AUS ENG)))");
  });
});

describe("press in English for the web's readers", () => {
  const names = daideMap(getScenario("classical")!).names;
  const full: Record<string, string> = {
    AUS: "Austria",
    ENG: "England",
    FRA: "France",
    GER: "Germany",
  };
  const gloss = (text: string) => {
    const t = tree(fromText(text, names));
    if (!t.ok) throw new Error(text);
    return pressGloss(t.items, (x) => full[names.nameOf(x) ?? ""] ?? "?");
  };
  test("each level 10 message says what it proposes or answers", () => {
    assert.equal(gloss("PRP (PCE (ENG FRA))"), "Proposes peace between England and France.");
    assert.equal(
      gloss("PRP (ALY (AUS ENG FRA) VSS (GER))"),
      "Proposes an alliance of Austria, England and France against Germany.",
    );
    assert.equal(gloss("PRP (DRW)"), "Proposes a draw.");
    assert.equal(gloss("PRP (SLO (FRA))"), "Proposes a solo win for France.");
    assert.equal(
      gloss("PRP (NOT (PCE (ENG FRA)))"),
      "Proposes not peace between England and France.",
    );
    assert.equal(
      gloss("YES (PRP (DRW (ENG FRA)))"),
      "Accepts the proposal of a draw between England and France.",
    );
    assert.equal(gloss("REJ (PRP (DRW))"), "Rejects the proposal of a draw.");
    assert.equal(gloss("CCL (PRP (DRW))"), "Takes back the proposal of a draw.");
    assert.equal(gloss("XDO ((ENG FLT LON) HLD)"), null);
  });
});
