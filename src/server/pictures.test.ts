import assert from "node:assert/strict";
import { test } from "node:test";
import { accounts, serveJudge } from "./testing.ts";

/*
 * The game's history as pictures over HTTP (pictures.ts): the animated GIF and a phase's PNG
 * the game page offers for download, drawn only from what the viewer may read.
 */

test("the game as a GIF and a phase as a PNG: only adjudicated orders, cached by ETag", async (t) => {
  const s = await serveJudge(t);
  if (!s) return;
  const { api, base } = s;
  const tok = await accounts(api, ["gm", "alice"]);
  const game = await api.ok<{ id: string; invites: { code: string; role: string }[] }>(
    "POST",
    "/api/games",
    { name: "Pictures", scenario: "7", options: { deadlines: { unit: "hours" } } },
    tok.gm,
  );
  const id = game.id;
  const code = game.invites.find((i) => i.role === "player")!.code;
  await api.ok("POST", `/api/invites/${code}`, { seat: 1 }, tok.alice); // England
  await api.ok("POST", `/api/games/${id}/gm/start`, undefined, tok.gm);
  const png = (q: string, headers: Record<string, string> = {}) =>
    fetch(`${base}/api/games/${id}/history.png${q}`, { headers });

  // Before anything is adjudicated: the board now, the same whether England has ordered.
  const now = await png("");
  assert.equal(now.status, 200);
  assert.equal(now.headers.get("content-type"), "image/png");
  const before = Buffer.from(await now.arrayBuffer());
  assert.deepEqual([...before.subarray(1, 4)], [0x50, 0x4e, 0x47], "a PNG");
  await api.ok("POST", `/api/games/${id}/orders`, { orders: ["F lon - nth"] }, tok.alice);
  const after = await png("", { authorization: `Bearer ${tok.alice}` });
  assert.ok(
    before.equals(Buffer.from(await after.arrayBuffer())),
    "orders not yet adjudicated are drawn for nobody, not even their author",
  );
  const notYet = await png("?phase=F1901M");
  assert.equal(notYet.status, 400);
  assert.match(
    ((await notYet.json()) as { error: string }).error,
    /no phase F1901M yet; its phases are S1901M/,
  );
  assert.equal((await png("?palette=pink")).status, 400, "a palette that does not exist");

  await api.ok("POST", `/api/games/${id}/chair/resolve`, undefined, tok.gm);
  const s1901 = await png("?phase=s1901m&palette=colorblind");
  assert.equal(s1901.status, 200, "the adjudicated phase, with its orders");
  assert.match(s1901.headers.get("content-disposition") ?? "", /filename="entente-.*-S1901M\.png"/);
  assert.ok(!Buffer.from(await s1901.arrayBuffer()).equals(before), "drawn with its orders");

  // The GIF is drawn in a worker thread: the judge answers meanwhile.
  const order: string[] = [];
  const drawing = fetch(`${base}/api/games/${id}/history.gif`).then((r) => {
    order.push("gif");
    return r;
  });
  await api.ok("GET", `/api/games/${id}`).then(() => order.push("view"));
  const gif = await drawing;
  assert.deepEqual(order, ["view", "gif"], "the game view was answered while the GIF was drawn");
  assert.equal(gif.status, 200);
  assert.equal(gif.headers.get("content-type"), "image/gif");
  const bytes = Buffer.from(await gif.arrayBuffer());
  assert.equal(bytes.subarray(0, 6).toString("latin1"), "GIF89a");
  assert.equal(bytes.readUInt16LE(6), 800, "800 pixels wide");
  const frames = bytes.filter((b, i) => b === 0x2c && bytes[i - 1] === 0x00).length;
  assert.ok(frames >= 2, `S1901M and the board now (${frames} image blocks)`);
  const etag = gif.headers.get("etag")!;
  const again = await fetch(`${base}/api/games/${id}/history.gif`, {
    headers: { "if-none-match": etag },
  });
  assert.equal(again.status, 304, "unchanged: not drawn again");
  const missing = await fetch(`${base}/api/games/nope/history.gif`);
  assert.equal(missing.status, 404);
});
