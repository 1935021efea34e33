import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { EmgDialect, type EmgRules, readEnvelope } from "./emg.ts";
import { MailGateway } from "./gateway.ts";
import { HouseRulesDialect } from "./houserules.ts";
import { addressOf, emgBody, GAME_ADDRESS, gameByMail, type Power, rawMail } from "./testing.ts";

/*
 * The EMG envelope (seed 004 §9) read by the gateway: EMGSTART, account, game, commands,
 * EMGEND; turns that overwrite, account and game ids checked, reports, and a variant without
 * EMG rules (a classical game by mail with EMG rules of the test's own).
 */

describe("mail: Global Diplomacy's envelope (seed 004 §9)", () => {
  const rules: EmgRules = {
    validate: (commands) =>
      commands.map((c) =>
        /^(?:MO \d+ \d+|DW \d+)$/i.test(c)
          ? { command: c, ok: true }
          : { command: c, ok: false, message: "write MO unit area or DW unit" },
      ),
  };

  test("the envelope is read: EMGSTART, account, game, commands, EMGEND", () => {
    assert.deepEqual(
      readEnvelope("\tEMGSTART  \n  ABC1234 \n  GD001 \n    MO 1 45 \n\n    DW 3 \nEMGEND\nthanks"),
      { account: "ABC1234", game: "GD001", commands: ["MO 1 45", "DW 3"] },
      "spacing and indentation do not matter",
    );
    assert.deepEqual(
      readEnvelope("ABC\nGD\nEMGEND"),
      { error: "there is no line EMGSTART" },
      "no start",
    );
    assert.deepEqual(
      readEnvelope("EMGSTART\nABC\nMO 1 2"),
      { error: "there is no line EMGEND after EMGSTART" },
      "no end",
    );
    assert.deepEqual(
      readEnvelope("EMGSTART\nABC\nEMGEND"),
      { error: "the game id is missing (the second line after EMGSTART)" },
      "no game",
    );
  });

  test("turns overwrite, ids are checked, reports are mailed", async (t) => {
    const { g } = await gameByMail(t);
    const gw = new MailGateway(g.judge, [new EmgDialect(() => rules), new HouseRulesDialect()]);
    /** An EMG mail from a player to the game. */
    const raw = (from: Power, subject: string, lines: string[]) =>
      rawMail({ from: addressOf(from), to: GAME_ADDRESS, subject, text: emgBody(lines) });
    const emg = async (from: Power, subject: string, lines: string[]) => {
      const r = await gw.receive(raw(from, subject, lines));
      assert.equal(r.dialect, "emg", "read as EMG mail");
      return { accepted: r.accepted, text: r.replies[0]!.text };
    };
    const s = g.secrets.russia;
    const badAccount = await emg("russia", "EMGTURN", ["NOPE", "SED", "MO 1 45"]);
    assert.equal(badAccount.accepted, false, "refused");
    assert.match(badAccount.text, /the account id "NOPE" is invalid/, "account named");
    assert.doesNotMatch(badAccount.text, /game id "SED" is invalid/, "the game id was fine");
    const badGame = await emg("russia", "EMGTURN", [s, "GD001", "MO 1 45"]);
    assert.match(badGame.text, /the game id "GD001" is invalid/, "game named");
    const badCommand = await emg("russia", "EMGTURN", [s, "SED", "MO 1 45", "FLY 2"]);
    assert.match(badCommand.text, /FLY 2\s+-> INVALID: write MO unit area/, "command named");
    const ok = await emg("russia", "EMGTURN", [s, "sed", "MO 1 45", "DW 3"]);
    assert.equal(ok.accepted, true, "accepted");
    assert.match(ok.text, /Accepted: 2 commands for game SED/, "said so");
    const again = await emg("russia", "EMGTURN", [s, "SED", "DW 4"]);
    assert.equal(again.accepted, true, "accepted again");
    const sets = await g.judge.submissions.currentOrders(g.players.russia, g.gameId);
    assert.deepEqual(sets.sets[0]!.orders, ["DW 4"], "the new set overwrote the last");
    const report = await emg("russia", "EMGREPORT", [s, "SED"]);
    assert.match(report.text, /Report for Russia, Spring 1901 movement/, "a report");
    assert.match(report.text, /Commands on file:\n {2}DW 4/, "with the commands on file");
    const forged = await gw.receive(raw("austria", "EMGTURN", [s, "SED", "DW 1"]));
    assert.match(
      forged.replies[0]!.text,
      /account id .* is invalid for mail from austria@players\.test/,
      "someone else's account id",
    );
    const noRules = new MailGateway(g.judge, [new EmgDialect(() => null)]);
    const r = await noRules.receive(raw("russia", "EMGTURN", [s, "SED", "DW 1"]));
    assert.match(r.replies[0]!.text, /does not take EMG commands/, "a variant without EMG rules");
  });
});
