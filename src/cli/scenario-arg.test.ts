import assert from "node:assert/strict";
import { test } from "node:test";
import { scenariosOf } from "../variants/scenarios.ts";
import { CliError } from "./errors.ts";
import { scenarioArg } from "./scenario-arg.ts";

test("--players: the variant's scenario, its standard one when left out, else the choices named", () => {
  assert.equal(scenarioArg("classical", "5").id, "5");
  assert.equal(scenarioArg("classical", undefined).id, scenariosOf("classical")[0]!.id);
  const known = scenariosOf("classical").map((s) => s.id);
  assert.ok(known.length > 1);
  assert.throws(
    () => scenarioArg("classical", "8"),
    (e: unknown) =>
      e instanceof CliError &&
      e.message === `classical has no scenario "8"; choose --players ${known.join(", ")}`,
  );
});
