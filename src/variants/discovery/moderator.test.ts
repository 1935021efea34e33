import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import {
  discoveryNew,
  discoveryPlay,
  discoveryReplay,
  discoveryMap as mapCommand,
} from "../../cli/discovery.ts";
import { discoveryMap } from "./index.ts";
import {
  newDiscoveryGame,
  playDiscoveryTurn,
  readDiscoveryGame,
  replayDiscoveryGame,
  selfPlayDiscovery,
} from "./moderator.ts";
import { areaName } from "./names.ts";

const dir = mkdtempSync(join(tmpdir(), "discovery-"));
after(() => rmSync(dir, { recursive: true, force: true }));

describe("a discovery game by order files", () => {
  it("plays turns from order files, writes each player's report and replays exactly", () => {
    const file = join(dir, "game.json");
    const made = discoveryNew({ seed: 44, players: 10, out: file });
    assert.equal(made.status, 0, `new: ${made.error ?? ""}`);
    assert.equal(
      discoveryNew({ seed: 1, players: 9, out: file }).status,
      2,
      "no game written over another",
    );
    const { map: dmap, global: gmap } = discoveryMap(44, 10);
    const s1 = dmap.starts[0]!;
    const s2 = dmap.starts[1]!;
    const sea = gmap.moves("squadron", s1.areas[0]!).find((a) => gmap.area(a)!.kind === "sea")!;
    const corpsTo = gmap.moves("corps", s2.areas[1]!).find((a) => !s2.areas.includes(a))!;
    const orders = [
      "# turn 1",
      "POWER 1",
      "VC 20 1000",
      `MO ${s1.areas[0]} ${sea}`,
      `SP ${areaName(dmap, 1, s1.areas[2]!)}`,
      `UU ${s1.areas[1]}`,
      "2-Brigantia",
      "VC 30 1400",
      `MO ${s2.areas[1]} ${corpsTo}`,
      "DA 1",
    ].join("\n");
    writeFileSync(join(dir, "t1.txt"), orders);
    const played = discoveryPlay(file, join(dir, "t1.txt"), { reports: join(dir, "r") });
    assert.equal(played.status, 0, `play: ${played.error ?? ""}`);
    const reports = readdirSync(join(dir, "r")).sort();
    assert.equal(reports.length, 10, "a report per player");
    const r1 = readFileSync(join(dir, "r", "turn1-player1.txt"), "utf8");
    assert.match(r1, /MAP OF KNOWN AREAS/, "with the map");
    assert.match(r1, new RegExp(`MO ${s1.areas[0]} ${sea}\\s+OK`), "the move worked");
    assert.match(r1, new RegExp(`UU ${s1.areas[1]}\\s+OK`), "the upgrade worked");
    assert.match(r1, /1-Avalon/, "player 1 is Avalon");
    const r2 = readFileSync(join(dir, "r", "turn1-player2.txt"), "utf8");
    assert.match(r2, new RegExp(`MO ${s2.areas[1]} ${corpsTo}\\s+OK`), "player 2's corps moved");
    const game = readDiscoveryGame(JSON.parse(readFileSync(file, "utf8")));
    assert.equal(game.history.length, 1, "one turn in the history");
    assert.ok(
      (game.position.known as Record<string, number[]>)["1"]!.includes(sea),
      "the sea is known",
    );
    assert.equal(discoveryReplay(file).status, 0, "replays exactly");
    const tampered = { ...game, position: { ...game.position, turn: 7 } };
    assert.equal(replayDiscoveryGame(tampered), false, "a changed position does not replay");
    const own = mapCommand(file, { player: "1" });
    assert.equal(own.status, 0, "a player's map");
    assert.match(own.text, new RegExp(`\\b${sea}\\b`), "shows the sea it went to");
    assert.equal(mapCommand(file, { player: "11" }).status, 2, "no player 11");
    // An unknown subcommand is commander's: src/cli/cli-definitions.test.ts.
  });

  it("self-plays a whole 12-player game to its end with reports every turn", () => {
    let turns = 0;
    const end = selfPlayDiscovery(3, 12, 60, (r, reports) => {
      turns++;
      assert.equal(Object.keys(reports).length, 12, "a report for each player");
      const seen = new Set(r.after.units.map((u) => u.area));
      assert.equal(seen.size, r.after.units.length, "one unit per area");
    });
    assert.ok(end.position.winners !== undefined, "the game ended");
    assert.ok(turns >= 10 && turns <= 40, `within the voted length (${turns})`);
    assert.ok(replayDiscoveryGame(end), "and replays exactly");
  });

  it("refuses a game file for another variant or without its map", () => {
    assert.throws(() => readDiscoveryGame({ variant: "global" }), /not discovery/, "variant");
    assert.throws(
      () => readDiscoveryGame({ variant: "discovery", position: {}, history: [] }),
      /seed and players/,
      "no map",
    );
    const g = newDiscoveryGame(1, 9);
    const done = { ...g, position: { ...g.position, winners: [1] } };
    assert.throws(() => playDiscoveryTurn(done, {}), /the game is over/, "an ended game");
  });
});
