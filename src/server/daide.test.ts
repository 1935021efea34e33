/*
 * DAIDE clients in the judge's own games (issue 31; `entente serve --daide-ports`), over real
 * TCP and HTTP: a game created with DAIDE seats gets a port (in the API's answer), web players
 * and DAIDE clients sit in it together, the clients' orders go through the judge (stored,
 * adjudicated, in its results) and the web players' reach the clients as ORD only once
 * adjudicated; a dropped connection comes back with IAM; DRW is the seat's draw vote; a game
 * that ends tells its clients and frees its port. Every wait is bounded; every socket and the
 * server are closed when the test ends, pass or fail.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { Judge } from "../judge/judge.ts";
import { testStore } from "../store/testing.ts";
import { DaideGames } from "./daide-games.ts";
import {
  client,
  daideGame,
  listening,
  portRange,
  refused,
  setUp,
  type View,
} from "./daide-testing.ts";
import { type Api, serve, serveJudge, waitFor } from "./testing.ts";

for (const kind of ["sqlite", "postgres"] as const)
  test(`a judge game with DAIDE seats and web seats on ${kind}: one adjudicated phase both ways, IAM, the end frees the port`, async (t) => {
    const s = await setUp(t, kind);
    if (!s) return;
    const { api } = s;
    const created = await api.call<View>(
      "POST",
      "/api/games",
      {
        name: "Bots and people",
        daide: ["england", "france"],
        options: { resolveEarly: true },
      },
      s.gm,
    );
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const game = created.body;
    const port = game.daide?.port;
    assert.ok(typeof port === "number", "the game's answer names its DAIDE port");
    assert.deepEqual(
      game.seatList.filter((x) => x.daide).map((x) => [x.name, x.daide!.client]),
      [
        ["England", null],
        ["France", null],
      ],
    );
    // The same answer to anybody reading the game.
    assert.equal((await api.ok<View>("GET", `/api/games/${game.id}`)).daide?.port, port);

    // Five web players; a seat kept for DAIDE is not a web player's.
    const code = game.invites!.find((i) => i.role === "player")!.code;
    // The invitation page offers the seats a player may take: not the kept ones.
    const offered = await api.ok<{ freeSeats: { name: string }[] }>("GET", `/api/invites/${code}`);
    assert.deepEqual(
      offered.freeSeats.map((x) => x.name),
      ["Austria", "Germany", "Italy", "Russia", "Turkey"],
    );
    const tok: Record<string, string> = {};
    for (const p of ["austria", "germany", "italy", "russia", "turkey"]) {
      const u = await api.ok<{ token: string }>("POST", "/api/users", {
        name: `${p}-player`,
        password: "correct horse battery",
      });
      tok[p] = u.token;
      await api.ok("POST", `/api/invites/${code}`, { power: p }, u.token);
    }
    const eve = await api.ok<{ token: string }>("POST", "/api/users", {
      name: "eve",
      password: "correct horse battery",
    });
    const refusedSeat = await api.call<{ error: string }>(
      "POST",
      `/api/invites/${code}`,
      { power: "england" },
      eve.token,
    );
    assert.equal(refusedSeat.status, 409);
    assert.match(refusedSeat.body.error, /kept for a DAIDE client/);

    // Two DAIDE clients and an observer. England accepts the map before the game starts (its
    // HLO comes with the start); France's NME takes the last seat and starts the game.
    await listening(port);
    const watcher = await client(t, port);
    watcher.send("OBS");
    assert.equal(await watcher.text("YES"), "YES (OBS)");
    const eng = await client(t, port);
    eng.send("NME ('EngBot') ('1.0')");
    assert.equal(await eng.text("YES"), "YES (NME ('EngBot') ('1.0'))");
    assert.equal(await eng.text("MAP"), "MAP ('standard')");
    eng.send("YES (MAP ('standard'))");
    assert.equal((await api.ok<View>("GET", `/api/games/${game.id}`)).status, "forming");
    const fra = await client(t, port);
    fra.send("NME ('FraBot') ('2.0')");
    assert.equal(await fra.text("YES"), "YES (NME ('FraBot') ('2.0'))");
    fra.send("YES (MAP ('standard'))");
    const engHlo = await eng.text("HLO");
    const passcode = Number(/^HLO \(ENG\) \((\d+)\) \(\(LVL 10\)/.exec(engHlo)?.[1]);
    assert.ok(passcode > 0, engHlo);
    assert.match(await fra.text("HLO"), /^HLO \(FRA\) \(\d+\) \(\(LVL 10\)/);
    assert.match(await eng.text("NOW"), /^NOW \(SPR 1901\) /);
    assert.match(await watcher.text("NOW"), /^NOW \(SPR 1901\) /);
    const started = await api.ok<View>("GET", `/api/games/${game.id}`);
    assert.equal(started.status, "active");
    assert.deepEqual(
      started.seatList.filter((x) => x.daide).map((x) => x.daide!.client),
      ["EngBot", "FraBot"],
    );

    // The web players order (Germany moves, the others hold), all final.
    await api.ok(
      "POST",
      `/api/games/${game.id}/orders`,
      { orders: ["F Kiel - Denmark", "A Berlin H", "A Munich H"], final: true },
      tok.germany,
    );
    for (const p of ["austria", "italy", "russia", "turkey"])
      await api.ok(
        "POST",
        `/api/games/${game.id}/orders`,
        { orders: started.position.units[p]!.map((u) => `${u} H`), final: true },
        tok[p],
      );
    // Before the adjudication a DAIDE client is told nobody's orders: there is no ORD to give.
    eng.send("ORD");
    assert.equal(await eng.text("REJ"), "REJ (ORD)");

    // England by DAIDE: an illegal order gets its note and is not stored; the legal ones MBV.
    eng.send("SUB ((ENG FLT LON) MTO YOR) ((ENG FLT EDI) MTO NWG) ((ENG AMY LVP) MTO YOR)");
    assert.equal(await eng.text("THX"), "THX ((ENG FLT LON) MTO YOR) (MBV)");
    assert.equal(await eng.text("THX"), "THX ((ENG FLT EDI) MTO NWG) (MBV)");
    assert.equal(await eng.text("THX"), "THX ((ENG AMY LVP) MTO YOR) (MBV)");
    assert.match(await eng.text("MIS"), /^MIS/);
    eng.send("SUB ((ENG FLT LON) MTO NTH)");
    assert.equal(await eng.text("THX"), "THX ((ENG FLT LON) MTO NTH) (MBV)");
    assert.equal(await eng.text("MIS"), "MIS");
    eng.send("SUB ((FRA AMY PAR) MTO BUR)");
    assert.equal(await eng.text("THX"), "THX ((FRA AMY PAR) MTO BUR) (NYU)");
    // France holds by DAIDE and says it is done (GOF): every power is final, the phase resolves.
    fra.send("SUB ((FRA FLT BRE) HLD) ((FRA AMY PAR) HLD)");
    assert.equal(await fra.text("THX"), "THX ((FRA FLT BRE) HLD) (MBV)");
    fra.send("GOF");
    assert.equal(await fra.text("YES"), "YES (GOF)");

    // The results reach every client as ORD: the web player's order and the client's own.
    assert.equal(
      await eng.text("ORD (SPR 1901) ((GER"),
      "ORD (SPR 1901) ((GER FLT KIE) MTO DEN) (SUC)",
    );
    assert.equal(
      await fra.text("ORD (SPR 1901) ((ENG FLT LON)"),
      "ORD (SPR 1901) ((ENG FLT LON) MTO NTH) (SUC)",
    );
    assert.equal(
      await watcher.text("ORD (SPR 1901) ((ENG AMY"),
      "ORD (SPR 1901) ((ENG AMY LVP) MTO YOR) (SUC)",
    );
    assert.match(await eng.text("NOW"), /^NOW \(FAL 1901\) /);
    // ... and the judge's own results have them: stored, adjudicated, on the page.
    const phases = await api.ok<{ phase: string; orders: Record<string, string[]> }[]>(
      "GET",
      `/api/games/${game.id}/phases`,
    );
    assert.equal(phases[0]!.phase, "S1901M");
    assert.equal(phases[0]!.orders.england!.length, 3);
    assert.equal(phases[0]!.orders.france!.length, 2);
    const fall = await api.ok<View>("GET", `/api/games/${game.id}`);
    assert.equal(fall.phase, "F1901M");
    assert.deepEqual([...fall.position.units.england!].sort(), ["A yor", "F nth", "F nwg"]);
    assert.ok(fall.position.units.germany!.includes("F den"));
    // The GM corrects the phase (Germany's orders): the clients are told it again.
    await api.ok(
      "POST",
      `/api/games/${game.id}/gm/correct`,
      { orders: { germany: ["F kie-hol", "A ber H", "A mun H"] }, reason: "sent in time" },
      s.gm,
    );
    assert.equal(
      await fra.text("ORD (SPR 1901) ((GER FLT KIE) MTO HOL)"),
      "ORD (SPR 1901) ((GER FLT KIE) MTO HOL) (SUC)",
    );
    assert.match(await fra.text("NOW (FAL 1901)"), /\(GER FLT HOL\)/);

    // England's connection drops: the others are told; IAM with a wrong passcode is refused,
    // with the HLO's passcode it is England again.
    eng.close();
    assert.equal(await fra.text("CCD"), "CCD (ENG)");
    const back = await client(t, port);
    back.send(`IAM (ENG) (${passcode === 1 ? 2 : passcode - 1})`);
    assert.match(await back.text("REJ"), /^REJ \(IAM/);
    back.send(`IAM (ENG) (${passcode})`);
    assert.equal(await back.text("YES"), `YES (IAM (ENG) (${passcode}))`);
    assert.equal(await fra.text("NOT"), "NOT (CCD (ENG))");
    back.send("HLO");
    assert.equal(await back.text("HLO"), engHlo);
    back.send("SUB ((ENG FLT NTH) MTO NWY)");
    assert.equal(await back.text("THX"), "THX ((ENG FLT NTH) MTO NWY) (MBV)");
    back.send("ORD");
    assert.match(await back.text("ORD (SPR 1901)"), /^ORD \(SPR 1901\)/);

    // DRW is England's vote for a draw of every survivor: a proposal of the judge's.
    back.send("DRW");
    assert.equal(await back.text("YES"), "YES (DRW)");
    const proposals = await api.ok<{ kind: string; powers: string[] }[]>(
      "GET",
      `/api/games/${game.id}/votes`,
      undefined,
      tok.germany,
    );
    assert.equal(proposals.length, 1);
    assert.equal(proposals[0]!.kind, "draw");
    assert.equal(proposals[0]!.powers.length, 7);
    const pid = (proposals[0] as unknown as { id: number }).id;
    // The web players vote yes; France's DAIDE client has not: an uncast vote is a no, so the
    // draw fails with this phase ...
    for (const p of ["austria", "germany", "italy", "russia", "turkey"])
      await api.ok("POST", `/api/games/${game.id}/votes/${pid}`, { vote: "yes" }, tok[p]);
    const advance = async () => {
      const before = await api.ok<View>("GET", `/api/games/${game.id}`);
      s.clock.t = Date.parse(before.deadline!) + 1;
      return waitFor(`the phase after ${before.phase}`, async () => {
        const g = await api.ok<View>("GET", `/api/games/${game.id}`);
        return g.phaseIndex > before.phaseIndex || g.status === "finished" ? g : undefined;
      });
    };
    assert.equal((await advance()).status, "active");
    assert.match(await fra.text("NOW (WIN 1901)"), /^NOW \(WIN 1901\)/);
    // ... and with France's DRW too (a new proposal: France's, England's and everybody's yes) it
    // passes: the game ends in a draw, every client is told (DRW, SMR, OFF), the port is free.
    fra.send("DRW");
    assert.equal(await fra.text("YES"), "YES (DRW)");
    back.send("DRW");
    assert.equal(await back.text("YES"), "YES (DRW)");
    const second = await api.ok<{ id: number; status: string }[]>(
      "GET",
      `/api/games/${game.id}/votes`,
      undefined,
      tok.germany,
    );
    const open = second.find((p) => p.status === "open")!;
    for (const p of ["austria", "germany", "italy", "russia", "turkey"])
      await api.ok("POST", `/api/games/${game.id}/votes/${open.id}`, { vote: "yes" }, tok[p]);
    assert.equal((await advance()).status, "finished");
    assert.equal(await fra.text("DRW"), "DRW");
    assert.match(await fra.text("SMR"), /^SMR \(WIN 1901\) \(AUS \('player'\)/);
    assert.equal(await fra.text("OFF"), "OFF");
    await fra.closedByServer();
    const over = await waitFor("the port freed", async () => {
      const g = await api.ok<View>("GET", `/api/games/${game.id}`);
      return g.daide?.port === null && (await refused(port)) ? g : undefined;
    });
    assert.equal(over.status, "finished");
    // The next game with DAIDE seats takes the port again (the lowest free of the range).
    const next = await api.ok<View>("POST", "/api/games", { name: "Next", daide: ["0"] }, s.gm);
    assert.equal(next.daide?.port, port);
  });

test("DAIDE seats are refused where they cannot be: no ports, a seat twice, a bad power", async (t) => {
  const plain = await serveJudge(t);
  if (!plain) return;
  const u = await plain.api.ok<{ token: string }>("POST", "/api/users", {
    name: "gamemaster",
    password: "gm secret words",
  });
  /** The game `body` asks for is refused (400), the error saying `why`. */
  const refusedGame = async (api: Api, gm: string, body: object, why: RegExp) => {
    const r = await api.call<{ error: string }>("POST", "/api/games", body, gm);
    assert.equal(r.status, 400);
    assert.match(r.body.error, why);
  };
  await refusedGame(plain.api, u.token, { name: "No ports", daide: ["england"] }, /--daide-ports/);
  const s = await setUp(t);
  if (!s) return;
  const both = { name: "Both", daide: ["england"], bots: { england: "hold" } };
  await refusedGame(s.api, s.gm, both, /England .*choose one/);
  await refusedGame(s.api, s.gm, { name: "Narnia", daide: ["narnia"] }, /nobody plays "narnia"/);
});

test("a DAIDE client that leaves before the start frees its seat for the next one", async (t) => {
  const s = await setUp(t);
  if (!s) return;
  const { game, port } = await daideGame(s, { name: "Wait", daide: ["russia"] });
  const clientOf = async () =>
    (await s.api.ok<View>("GET", `/api/games/${game.id}`)).seatList.find((x) => x.daide)!.daide!
      .client;
  const first = await client(t, port);
  first.send("NME ('First') ('1')");
  assert.equal(await first.text("YES"), "YES (NME ('First') ('1'))");
  assert.equal(await clientOf(), "First");
  // Every kept seat is taken: another NME is refused.
  const extra = await client(t, port);
  extra.send("NME ('Extra') ('1')");
  assert.equal(await extra.text("REJ"), "REJ (NME ('Extra') ('1'))");
  first.close();
  await waitFor("the seat freed", async () => (await clientOf()) === null, 30_000);
  const second = await client(t, port);
  second.send("NME ('Second') ('1')");
  assert.equal(await second.text("YES"), "YES (NME ('Second') ('1'))");
  assert.equal(await clientOf(), "Second");
});

test("a DAIDE seat outlives a restart of the server: IAM with the HLO's passcode", async (t) => {
  const ts = await testStore(t, "sqlite");
  assert.ok(ts, "sqlite store");
  const daidePorts = portRange();
  const start = async () => {
    const judge = new Judge({ store: ts.store, daidePorts });
    const { api, close } = await serve(t, judge, { daide: {} });
    return { api, close };
  };
  const first = await start();
  const gm = await first.api.ok<{ token: string }>("POST", "/api/users", {
    name: "gamemaster",
    password: "gm secret words",
  });
  const { game, port } = await daideGame(
    { api: first.api, gm: gm.token },
    { name: "Restart", daide: ["england"] },
  );
  const eng = await client(t, port);
  eng.send("NME ('EngBot') ('1.0')");
  assert.equal(await eng.text("YES"), "YES (NME ('EngBot') ('1.0'))");
  eng.send("YES (MAP ('standard'))");
  await first.api.ok("POST", `/api/games/${game.id}/gm/start`, undefined, gm.token);
  const hlo = await eng.text("HLO");
  const passcode = Number(/^HLO \(ENG\) \((\d+)\)/.exec(hlo)?.[1]);
  assert.ok(passcode > 0, hlo);
  // Part of England's orders, stored by the judge before the restart.
  eng.send("SUB ((ENG FLT LON) MTO NTH)");
  assert.equal(await eng.text("THX"), "THX ((ENG FLT LON) MTO NTH) (MBV)");
  assert.equal(await eng.text("MIS"), "MIS (ENG FLT EDI) (ENG AMY LVP)");
  await first.close();
  await eng.closedByServer();
  // Another server on the same database: the game's port listens again, the seat is kept.
  const second = await start();
  await listening(port);
  const back = await client(t, port);
  back.send(`IAM (ENG) (${passcode})`);
  assert.equal(await back.text("YES"), `YES (IAM (ENG) (${passcode}))`);
  // MIS comes from the stored set: London's order stands, the other two are missing.
  back.send("MIS");
  assert.equal(await back.text("MIS"), "MIS (ENG FLT EDI) (ENG AMY LVP)");
  back.send("SUB ((ENG FLT EDI) MTO NWG)");
  assert.equal(await back.text("THX"), "THX ((ENG FLT EDI) MTO NWG) (MBV)");
  assert.equal(await back.text("MIS"), "MIS (ENG AMY LVP)");
  // ... and the set stored with the new order keeps London's.
  const orders = await second.api.ok<{ sets: { power: string; orders: string[] }[] }>(
    "GET",
    `/api/games/${game.id}/orders`,
    undefined,
    gm.token,
  );
  assert.deepEqual(
    orders.sets.map((x) => [x.power, x.orders]),
    [["england", ["F lon - nth", "F edi - nwg"]]],
  );
});

test("a server stopped while a game's DAIDE port is being opened leaves no listener behind", async (t) => {
  const ts = await testStore(t, "sqlite");
  assert.ok(ts, "sqlite store");
  const judge = new Judge({ store: ts.store, daidePorts: portRange() });
  // The server without its own DAIDE listeners: the DaideGames below is the one tested.
  const { api } = await serve(t, judge);
  const gm = await api.ok<{ token: string }>("POST", "/api/users", {
    name: "gamemaster",
    password: "gm secret words",
  });
  const game = await api.ok<View>(
    "POST",
    "/api/games",
    { name: "Stop", daide: ["england"] },
    gm.token,
  );
  const port = game.daide!.port!;
  // The game's port is being opened (its record read) when the server stops.
  let reading!: () => void;
  const started = new Promise<void>((r) => {
    reading = r;
  });
  let release!: () => void;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  const read = judge.daide.game.bind(judge.daide);
  judge.daide.game = async (...a: Parameters<typeof read>) => {
    reading();
    await gate;
    return read(...a);
  };
  const games = new DaideGames(judge, { log: () => {} });
  // However the test ends, the held read goes on and the listeners close: nothing waits forever.
  t.after(() => {
    release();
    return games.close();
  });
  const refreshed = games.refresh();
  // The refresh reads the game's record (or ends without: then the assertion says so).
  let opening = false;
  await Promise.race([started.then(() => (opening = true)), refreshed]);
  assert.ok(opening, "the refresh opens the game's port");
  const closed = games.close();
  release();
  await Promise.all([refreshed, closed]);
  assert.ok(await refused(port), `port ${port} is closed with the server`);
});
