import assert from "node:assert/strict";
import { createInterface } from "node:readline";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { startChild } from "../testing/children.ts";

/*
 * `entente agent` as an agent in another language sees it: a child process spoken to in
 * JSON Lines. A random agent plays a year, clones and saves a game, loads it, and sends
 * requests that are wrong.
 */

const bin = fileURLToPath(new URL("../../bin/entente", import.meta.url));

type Answer = Record<string, unknown> & { ok: boolean };

test("entente agent plays games over JSON Lines", async () => {
  const agent = startChild(bin, ["agent"], { stdio: ["pipe", "pipe", "inherit"] });
  const child = agent.proc;
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const ask = async (req: unknown): Promise<Answer> => {
    child.stdin!.write(`${typeof req === "string" ? req : JSON.stringify(req)}\n`);
    const { value, done } = await lines.next();
    assert.ok(!done, "the agent answers every request");
    return JSON.parse(value as string) as Answer;
  };
  try {
    const created = await ask({ op: "new", variant: "classical", rules: "datc", id: 7 });
    assert.equal(created.ok, true, "a game is created");
    assert.equal(created.id, 7, "the request id is echoed");
    assert.equal(created.phase, "S1901M", "at the start");
    const game = created.game as number;

    const board = await ask({ op: "board", game });
    const provinces = board.provinces as string[];
    assert.equal(provinces.length, 75, "the classical board has 75 provinces");

    const legal = await ask({ op: "legal", game });
    const choices = legal.choices as { unit: number; orders: { kind: string }[] }[];
    assert.equal(choices.length, 22, "a choice per unit");
    assert.ok(
      choices.every((c) => c.orders.some((o) => o.kind === "hold")),
      "every unit may hold",
    );

    let phase = "S1901M";
    for (let i = 0; phase !== "S1902M"; i++) {
      const orders = (await ask({ op: "random", game, seed: i })).orders as unknown[];
      const played = await ask({ op: "step", game, orders });
      assert.equal(played.ok, true, `phase ${phase} is played`);
      assert.equal(played.phase, phase, "the phase played is the one the game stood at");
      const results = played.results as { result: string }[];
      assert.ok(
        results.every((r) => r.result !== "invalid"),
        "random legal orders are never invalid",
      );
      phase = played.next as string;
    }

    const copy = (await ask({ op: "clone", game })).game as number;
    const text = await ask({ op: "step", game: copy, texts: { england: ["F lon - eng"] } });
    assert.equal(text.ok, true, "a clone steps with order texts");
    assert.equal((await ask({ op: "state", game })).phase, "S1902M", "the original stays");

    const saved = (await ask({ op: "save", game })).save;
    const loaded = await ask({ op: "load", save: saved });
    assert.equal(loaded.phase, "S1902M", "a saved game loads where it was");
    assert.deepEqual(
      loaded.position,
      (await ask({ op: "state", game })).position,
      "with the same position",
    );

    const bad = await ask({
      op: "step",
      game,
      orders: [{ kind: "move", power: 0, unit: 400 }],
    });
    assert.equal(bad.ok, false, "a malformed order is refused");
    assert.match(String(bad.error), /unit must be a province id/, "saying what is wrong");
    const junk = await ask("not json");
    assert.match(String(junk.error), /not JSON/, "a line that is not JSON is refused");
    const none = await ask({ op: "state", game: 99 });
    assert.match(String(none.error), /no game 99/, "an unknown game is refused");
    assert.equal((await ask({ op: "state", game })).ok, true, "and the session goes on");
  } finally {
    // Its input closed, it ends; if it does not within the bound, it is ended.
    child.stdin!.end();
    const ended = await Promise.race([
      agent.exited,
      new Promise<null>((r) => setTimeout(() => r(null), 30_000).unref()),
    ]);
    if (!ended) await agent.end();
    assert.ok(ended, "the agent ends when its input closes");
  }
});
