/*
 * DAIDE clients in the judge's games, the rest of issue 31: press at level 10 through the
 * judge's own press path (DAIDE to DAIDE as FRM, DAIDE to web players as its text, web press
 * to a DAIDE seat as FRM when it is a level 10 message; nobody reads another's private
 * press; a no-press game says LVL 0 and refuses SND), and a europe1935 game's ORD and HST.
 * Over real TCP and HTTP; every wait is bounded; every socket and the server are closed when
 * the test ends, pass or fail.
 */
import assert from "node:assert/strict";
import { type TestContext, test } from "node:test";
import { daideMap } from "../daide/mapdef.ts";
import type { TestClient } from "../daide/testing.ts";
import { getScenario } from "../variants/scenarios.ts";
import { client, daideGame, listening, setUp, type View, webPlayer } from "./daide-testing.ts";

interface PressMessage {
  from: string | null;
  to: "all" | string[];
  body: string;
  kind: string;
}

/** NME and YES (MAP) for a kept seat. */
async function seat(c: TestClient, name: string, map = "standard") {
  c.send(`NME ('${name}') ('1')`);
  assert.equal(await c.text("YES"), `YES (NME ('${name}') ('1'))`);
  c.send(`YES (MAP ('${map}'))`);
}

/** England's and France's clients (EngBot, FraBot) on the game's port, seated. */
async function engAndFra(t: TestContext, port: number) {
  await listening(port);
  const eng = await client(t, port);
  const fra = await client(t, port);
  await seat(eng, "EngBot");
  await seat(fra, "FraBot");
  return { eng, fra };
}

test("press in a judge game: DAIDE to DAIDE as FRM, to web players as text, web press to a DAIDE seat as FRM if it is DAIDE", async (t) => {
  const s = await setUp(t);
  if (!s) return;
  const { api } = s;
  const { game, port } = await daideGame(s, { name: "Talking bots", daide: ["england", "france"] });
  const germany = await webPlayer(s, game, "germany");
  const austria = await webPlayer(s, game, "austria");
  const { eng, fra } = await engAndFra(t, port);
  const watcher = await client(t, port);
  await watcher.observe();
  await api.ok("POST", `/api/games/${game.id}/gm/start`, undefined, s.gm);
  assert.match(await eng.text("HLO"), /^HLO \(ENG\) \(\d+\) \(\(LVL 10\)/);
  assert.match(await fra.text("HLO"), /^HLO \(FRA\) \(\d+\) \(\(LVL 10\)/);
  await eng.text("NOW (SPR 1901)");
  await watcher.text("NOW (SPR 1901)");

  // DAIDE to DAIDE: YES to the sender, FRM to the recipient.
  eng.send("SND (FRA) (PRP (PCE (ENG FRA)))");
  assert.equal(await eng.text("YES"), "YES (SND (FRA) (PRP (PCE (ENG FRA))))");
  assert.equal(await fra.text("FRM"), "FRM (ENG) (FRA) (PRP (PCE (ENG FRA)))");
  // ... stored as England's white press, which the web reads as its DAIDE text.
  const gmReads = await api.ok<PressMessage[]>(
    "GET",
    `/api/games/${game.id}/press`,
    undefined,
    s.gm,
  );
  assert.deepEqual(
    gmReads.map((m) => [m.from, m.to, m.body, m.kind]),
    [
      [
        "england",
        ["france"],
        "PRP (PCE (ENG FRA))\n\nProposes peace between England and France.",
        "white",
      ],
    ],
  );

  // DAIDE to a web player: Germany reads it; Austria and France do not.
  eng.send("SND (GER) (PRP (ALY (ENG GER) VSS (FRA)))");
  assert.equal(await eng.text("YES"), "YES (SND (GER) (PRP (ALY (ENG GER) VSS (FRA))))");
  const germanReads = await api.ok<PressMessage[]>(
    "GET",
    `/api/games/${game.id}/press`,
    undefined,
    germany,
  );
  assert.deepEqual(
    germanReads.map((m) => [m.from, m.body]),
    [
      [
        "england",
        "PRP (ALY (ENG GER) VSS (FRA))\n\nProposes an alliance of England and Germany against France.",
      ],
    ],
  );
  const austrianReads = await api.ok<PressMessage[]>(
    "GET",
    `/api/games/${game.id}/press`,
    undefined,
    austria,
  );
  assert.deepEqual(austrianReads, [], "Austria reads nobody's private press");

  // Web press to England: prose and grey press stay on the web; white DAIDE press is FRM.
  const send = (body: string, kind = "white", to: string[] | "all" = ["england"]) =>
    api.ok("POST", `/api/games/${game.id}/press`, { to, body, kind }, germany);
  await send("Shall we talk about the North Sea?");
  await send("PRP (PCE (ENG GER))", "grey");
  await send("PRP (PCE (ENG GER))");
  assert.equal(await eng.text("FRM"), "FRM (GER) (ENG) (PRP (PCE (ENG GER)))");
  // Press to all: each DAIDE seat is told, with every other power as its recipients.
  await send("PRP (DRW)", "white", "all");
  assert.equal(await fra.text("FRM (GER)"), "FRM (GER) (AUS ENG FRA ITA RUS TUR) (PRP (DRW))");
  assert.equal(await eng.text("FRM"), "FRM (GER) (AUS ENG FRA ITA RUS TUR) (PRP (DRW))");
  // A message of a higher level than the game's is not passed on either.
  await send("PRP (XDO ((GER AMY BER) HLD))");
  // The first line is the message; a comment after it stays on the web.
  await send("YES (PRP (PCE (ENG GER)))\nGlad we agree.");
  assert.equal(await eng.text("FRM"), "FRM (GER) (ENG) (YES (PRP (PCE (ENG GER))))");

  // Nobody read another's private press: England's FRMs were England's; the observer had none.
  assert.deepEqual(
    eng.log.filter((m) => m.text?.startsWith("FRM")).map((m) => m.text),
    [
      "FRM (GER) (ENG) (PRP (PCE (ENG GER)))",
      "FRM (GER) (AUS ENG FRA ITA RUS TUR) (PRP (DRW))",
      "FRM (GER) (ENG) (YES (PRP (PCE (ENG GER))))",
    ],
  );
  watcher.send("MAP");
  await watcher.text("MAP");
  assert.equal(watcher.log.filter((m) => m.text?.startsWith("FRM")).length, 0);
  assert.deepEqual(
    fra.log.filter((m) => m.text?.startsWith("FRM")).map((m) => m.text),
    ["FRM (ENG) (FRA) (PRP (PCE (ENG FRA)))", "FRM (GER) (AUS ENG FRA ITA RUS TUR) (PRP (DRW))"],
  );

  // A DAIDE seat whose client is gone: CCD (power), and the message is not sent.
  fra.close();
  assert.equal(await eng.text("CCD"), "CCD (FRA)");
  eng.send("SND (FRA) (PRP (DRW))");
  assert.equal(await eng.text("CCD"), "CCD (FRA)");
  const after = await api.ok<PressMessage[]>("GET", `/api/games/${game.id}/press`, undefined, s.gm);
  assert.equal(after.filter((m) => m.from === "england").length, 2, "not stored");
  // The judge's rules for press hold: none in the adjustments by default. England takes
  // Norway, and has a build to make in the winter.
  eng.send("SUB ((ENG FLT EDI) MTO NTH)");
  assert.equal(await eng.text("THX"), "THX ((ENG FLT EDI) MTO NTH) (MBV)");
  const st = await api.ok<View>("GET", `/api/games/${game.id}`);
  s.clock.t = Date.parse(st.deadline!) + 1;
  await eng.text("NOW (FAL 1901)");
  eng.send("SUB ((ENG FLT NTH) MTO NWY)");
  assert.equal(await eng.text("THX"), "THX ((ENG FLT NTH) MTO NWY) (MBV)");
  s.clock.t = Date.parse((await api.ok<View>("GET", `/api/games/${game.id}`)).deadline!) + 1;
  await eng.text("NOW (WIN 1901)");
  eng.send("SND (GER) (PRP (DRW))");
  assert.equal(await eng.text("REJ"), "REJ (SND (GER) (PRP (DRW)))");
});

for (const [what, press] of [
  ["a no-press judge game", { white: false, grey: false }],
  ["a judge game with press.daide false (web press only)", { daide: false }],
] as const)
  test(`${what}: HLO says LVL 0, SND gets REJ, web press is no FRM`, async (t) => {
    const s = await setUp(t);
    if (!s) return;
    const { game, port } = await daideGame(s, {
      name: "Gunboat",
      daide: ["england", "france"],
      options: { press },
    });
    const germany = await webPlayer(s, game, "germany");
    const { eng, fra } = await engAndFra(t, port);
    await s.api.ok("POST", `/api/games/${game.id}/gm/start`, undefined, s.gm);
    assert.match(await eng.text("HLO"), /^HLO \(ENG\) \(\d+\) \(\(LVL 0\)/);
    await eng.text("NOW");
    eng.send("SND (FRA) (PRP (PCE (ENG FRA)))");
    assert.equal(await eng.text("REJ"), "REJ (SND (FRA) (PRP (PCE (ENG FRA))))");
    if (press.white !== false) {
      // The web players still talk, and their press in DAIDE's words is not passed on.
      await s.api.ok(
        "POST",
        `/api/games/${game.id}/press`,
        { to: ["france"], body: "PRP (PCE (FRA GER))" },
        germany,
      );
    }
    // A SUB reads the game again (new press included) before its THX: an FRM would come first.
    fra.send("SUB ((FRA AMY PAR) HLD)");
    await fra.text("THX");
    assert.equal(fra.log.filter((m) => m.text?.startsWith("FRM")).length, 0);
  });

test("europe1935 in a judge game: ORD and HST a client can read, with a committee order in the phase", async (t) => {
  const s = await setUp(t);
  if (!s) return;
  const { game, port } = await daideGame(s, {
    name: "Committee and bots",
    variant: "europe1935",
    daide: ["france"],
  });
  const uk = await webPlayer(s, game, "uk");
  const map = daideMap(getScenario("europe1935")!);
  const fra = await client(t, port, map.names);
  await seat(fra, "FraBot", "europe1935");
  await s.api.ok("POST", `/api/games/${game.id}/gm/start`, undefined, s.gm);
  assert.match(await fra.text("HLO"), /^HLO \(FRA\)/);
  const now = await fra.text("NOW");
  const [, season, year] = /^NOW \((\w+) (\d+)\)/.exec(now)!;
  // The UK orders an insurrection (invalid: no power has lost its country; the fleet holds)
  // beside a move; France holds by DAIDE.
  await s.api.ok(
    "POST",
    `/api/games/${game.id}/orders`,
    { orders: ["F I Lon-Turkey", "A Edi-Yor"], final: true },
    uk,
  );
  fra.send("SUB ((FRA AMY PAR) HLD)");
  assert.equal(await fra.text("THX"), "THX ((FRA AMY PAR) HLD) (MBV)");
  const st = await s.api.ok<View>("GET", `/api/games/${game.id}`);
  s.clock.t = Date.parse(st.deadline!) + 1;
  const turn = `(${season} ${year})`;
  assert.equal(
    await fra.text(`ORD ${turn} ((UNI AMY EDI)`),
    `ORD ${turn} ((UNI AMY EDI) MTO YOR) (SUC)`,
  );
  // The fleet's insurrection order has no DAIDE form; it held, and is told so (after the rest).
  assert.equal(
    await fra.text(`ORD ${turn} ((UNI FLT LON)`),
    `ORD ${turn} ((UNI FLT LON) HLD) (SUC)`,
  );
  assert.match(await fra.text("NOW"), /\(UNI AMY YOR\)/);
  fra.send(`HST ${turn}`);
  const hst = await fra.text(`ORD ${turn} ((UNI FLT LON)`);
  assert.equal(hst, `ORD ${turn} ((UNI FLT LON) HLD) (SUC)`);
  assert.match(await fra.text("SCO"), /^SCO \(UNI /);
  assert.match(await fra.text("NOW"), /\(UNI AMY YOR\)/);
  fra.send("ORD");
  assert.match(await fra.text(`ORD ${turn}`), /^ORD /);
});

test("the summary at the end names the built-in players' seats", async (t) => {
  const s = await setUp(t);
  if (!s) return;
  const others = ["austria", "france", "germany", "italy", "russia", "turkey"];
  const { game, port } = await daideGame(s, {
    name: "Holding",
    daide: ["england"],
    bots: Object.fromEntries(others.map((p) => [p, "hold"])),
    options: { resolveEarly: true },
  });
  const eng = await client(t, port);
  await seat(eng, "EngBot");
  await eng.text("NOW (SPR 1901)");
  eng.send("GOF");
  await eng.text("NOW (FAL 1901)");
  await s.api.ok("POST", `/api/games/${game.id}/gm/end`, { result: "draw" }, s.gm);
  assert.equal(await eng.text("DRW"), "DRW");
  assert.match(
    await eng.text("SMR"),
    /^SMR \(\w+ \d+\) \(AUS \('hold'\) \('built-in'\) 3\) \(ENG \('EngBot'\) \('1'\) 3\)/,
  );
  assert.equal(await eng.text("OFF"), "OFF");
});

test("a DAIDE seat's press is under a web player's quota: 60 messages in 10 minutes, then REJ", async (t) => {
  const s = await setUp(t);
  if (!s) return;
  const { game, port } = await daideGame(s, { name: "Chatty", daide: ["england", "france"] });
  const { eng } = await engAndFra(t, port);
  await s.api.ok("POST", `/api/games/${game.id}/gm/start`, undefined, s.gm);
  await eng.text("NOW");
  for (let i = 0; i < 60; i++) {
    eng.send("SND (FRA) (PRP (DRW))");
    assert.equal(await eng.text("YES"), "YES (SND (FRA) (PRP (DRW)))", `message ${i + 1}`);
  }
  eng.send("SND (FRA) (PRP (PCE (ENG FRA)))");
  assert.equal(await eng.text("REJ"), "REJ (SND (FRA) (PRP (PCE (ENG FRA))))");
  // Ten minutes later (the judge's clock) one more may go.
  s.clock.t += 10 * 60_000;
  eng.send("SND (FRA) (PRP (PCE (ENG FRA)))");
  assert.equal(await eng.text("YES"), "YES (SND (FRA) (PRP (PCE (ENG FRA))))");
});
