import assert from "node:assert/strict";
import { test } from "node:test";
import { classical } from "../variants/classical/index.ts";
import { getScenario } from "../variants/scenarios.ts";
import { seaRoute } from "./convoy.ts";
import { makeContext } from "./interpret.ts";
import { impossibleConvoy } from "./reading.ts";
import { DATC_RULES } from "./rules.ts";
import { movementPositions } from "./testing.ts";

test("an army's move over sea is impossible exactly when no chain of fleet-held seas joins the ends", () => {
  const map = classical.map;
  const coasts = map.provinces.filter((p) => p.kind === "coast");
  const positions = movementPositions(getScenario("classical")!, 7, 1912);
  let possible = 0;
  let impossible = 0;
  for (const position of positions) {
    const ctx = makeContext(classical, position, DATC_RULES);
    const fleetSeas = new Set(
      position.units
        .filter((u) => u.type === "F" && map.get(u.province).kind === "sea")
        .map((u) => u.province),
    );
    for (const unit of position.units) {
      if (unit.type !== "A" || map.get(unit.province).kind !== "coast") continue;
      for (const to of coasts) {
        if (to.id === unit.province) continue;
        const expected =
          map.armyAdjacent(unit.province, to.id) ||
          seaRoute(map, unit.province, to.id, (s) => fleetSeas.has(s));
        const why = impossibleConvoy(ctx, {
          kind: "move",
          unit,
          to: { province: to.id, coast: null },
          viaConvoy: false,
        });
        assert.equal(
          why === null,
          expected,
          `${position.phase.year}: A ${unit.province} - ${to.id}`,
        );
        if (expected) possible++;
        else impossible++;
      }
    }
  }
  assert.ok(possible > 1000 && impossible > 1000, `${possible} possible, ${impossible} impossible`);
});
