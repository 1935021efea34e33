import assert from "node:assert/strict";
import { test } from "node:test";
import { defaultBot } from "../bots/index.ts";
import { documented } from "./openapi-testing.ts";
import { serveJudge } from "./testing.ts";

/*
 * Built-in players over HTTP (issue 31, docs/judge.md "Built-in players"): the practice game,
 * bots at creation, gm/bot and the option botTakeover, each answer fitting the schema
 * /api/openapi.json documents for it, and bad input refused with what to send.
 */

interface View {
  id: string;
  status: string;
  phase: string;
  bots?: number;
  you: { role: string; powers: string[] } | null;
  seatList: { index: number; player: string | null; bot?: { id: string; kind: string } }[];
  bot?: { seat: number; seatName: string; bot: string | null };
}

test("practice, bots at creation, gm/bot and botTakeover over HTTP: answers as documented", async (t) => {
  const s = await serveJudge(t);
  if (!s) return;
  const { api } = s;
  const { check: fits } = await documented(api);
  const ann = await api.ok<{ token: string }>("POST", "/api/users", {
    name: "ann",
    password: "correct horse battery",
  });
  const practice = await api.call<View>("POST", "/api/practice", { power: "italy" }, ann.token);
  assert.equal(practice.status, 201);
  fits("post", "/api/practice", 201, practice.body);
  assert.equal(practice.body.status, "active");
  assert.deepEqual(practice.body.you?.powers, ["italy"]);
  assert.equal(practice.body.bots, 6);
  const bad = await api.call<{ error: string }>(
    "POST",
    "/api/practice",
    { power: "narnia" },
    ann.token,
  );
  assert.equal(bad.status, 400);
  assert.match(bad.body.error, /no power "narnia" in classical; the powers are Austria, England/);
  assert.equal((await api.call("POST", "/api/practice", {})).status, 401, "log in first");
  const list = await api.ok<View[]>("GET", "/api/games");
  fits("get", "/api/games", 200, list);
  assert.equal(list.find((g) => g.id === practice.body.id)?.bots, 6);

  // Bots at creation, the option on; the GM seats and takes off a bot.
  const created = await api.call<View & { invites: { code: string; role: string }[] }>(
    "POST",
    "/api/games",
    { name: "Bots", bots: { turkey: "random", "0": "hold" }, options: { botTakeover: "hold" } },
    ann.token,
  );
  assert.equal(created.status, 201, JSON.stringify(created.body));
  fits("post", "/api/games", 201, created.body);
  assert.deepEqual(
    created.body.seatList.filter((x) => x.bot).map((x) => [x.index, x.bot!.id]),
    [
      [0, "hold"],
      [6, "random"],
    ],
  );
  const unknownBot = await api.call<{ error: string }>(
    "POST",
    "/api/games",
    { name: "Bad", options: { botTakeover: "genius" } },
    ann.token,
  );
  assert.equal(unknownBot.status, 400);
  assert.match(
    unknownBot.body.error,
    /botTakeover must be false, true, "default" or a built-in player's id: .*random/,
  );
  const id = created.body.id;
  const seated = await api.call<View>(
    "POST",
    `/api/games/${id}/gm/bot`,
    { power: "england", bot: "default" },
    ann.token,
  );
  assert.equal(seated.status, 200, JSON.stringify(seated.body));
  fits("post", "/api/games/{id}/gm/bot", 200, seated.body);
  assert.deepEqual(seated.body.bot, { seat: 1, seatName: "England", bot: defaultBot().id });
  const off = await api.ok<View>(
    "POST",
    `/api/games/${id}/gm/bot`,
    { seat: 1, bot: "off" },
    ann.token,
  );
  fits("post", "/api/games/{id}/gm/bot", 200, off);
  assert.equal(off.seatList[1]!.bot, undefined);
  const noSeat = await api.call<{ error: string }>(
    "POST",
    `/api/games/${id}/gm/bot`,
    { bot: "random" },
    ann.token,
  );
  assert.equal(noSeat.status, 400);
  assert.match(noSeat.body.error, /name the seat: seat \(its number\) or power/);
  const view = await api.ok<View>("GET", `/api/games/${id}`);
  fits("get", "/api/games/{id}", 200, view);
});
