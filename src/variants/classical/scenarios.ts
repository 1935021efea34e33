import type { Rng } from "../../engine/random.ts";
import type { PhaseResult } from "../../engine/results.ts";
import {
  type Scenario,
  type ScenarioEvent,
  type Seat,
  standardScenario,
} from "../../engine/scenario.ts";
import { type Position, type PowerId, powerId, provinceId } from "../../engine/types.ts";
import type { Variant } from "../../engine/variant.ts";
import { classical } from "./index.ts";

/*
 * The rulebook's alternatives for two to six players (seed 001, section 2), on the
 * classical board. Centres and adjustments stay per power; a seat may play several.
 */

const seat = (...powers: string[]): Seat => ({
  name: powers.map((p) => p[0]!.toUpperCase() + p.slice(1)).join("/"),
  powers: powers.map(powerId),
});

const seated = (id: string, description: string, seats: Seat[]): Scenario => ({
  id,
  description,
  variant: classical,
  seats,
});

/** Italy's own land, closed to everybody while Italy is neutral in the two-player game. */
const ITALIAN_TERRITORY = new Set(["pie", "ven", "tus", "rom", "apu", "nap"].map(provinceId));
const NONE = new Set<never>();

/** The two-player game (World War I): starts 1914; Italy neutral until Spring 1915. */
const ww1Variant: Variant = {
  ...classical,
  start: { ...classical.start, phase: { season: "S", year: 1914, type: "M" } },
  // The seats' own victory decides (24 units); no single power's centre count ends it.
  victoryCenters: null,
  closed: (phase) => (phase.year < 1915 ? ITALIAN_TERRITORY : NONE),
};

const ITALY = powerId("italy");
const WW1_UNITS_TO_WIN = 24;

function ww1AfterPhase(
  result: PhaseResult,
  seats: readonly Seat[],
  history: readonly ScenarioEvent[],
  rng: Rng,
): readonly ScenarioEvent[] {
  if (history.some((e) => e.kind === "coin-toss")) return [];
  // Before the Fall 1914 adjustments: as soon as fall 1914's moves and retreats are done.
  const next = result.next.phase;
  const fallDone = next.year > 1914 || (next.year === 1914 && next.season === "W");
  if (!fallDone) return [];
  const winner = rng.int(seats.length);
  const after = seats.map((s, i) => (i === winner ? { ...s, powers: [...s.powers, ITALY] } : s));
  return [
    {
      kind: "coin-toss",
      text: `The coin is tossed: ${seats[winner]!.name} wins, and Italy joins ${seats[winner]!.name} from Spring 1915.`,
      seats: after,
    },
  ];
}

function ww1Victory(position: Position, seats: readonly Seat[]): number | null {
  const count = (powers: readonly PowerId[]) =>
    position.units.filter((u) => powers.includes(u.power)).length;
  const i = seats.findIndex((s) => count(s.powers) >= WW1_UNITS_TO_WIN);
  return i === -1 ? null : i;
}

const scenarios: readonly Scenario[] = [
  standardScenario(classical),
  seated(
    "6",
    "six players: Italy is not played (its units hold, do not support each other, are disbanded if dislodged)",
    ["austria", "england", "france", "germany", "russia", "turkey"].map((p) => seat(p)),
  ),
  seated(
    "5",
    "five players: Italy and Germany are not played",
    ["austria", "england", "france", "russia", "turkey"].map((p) => seat(p)),
  ),
  seated("4", "four players: England; Austria/France; Germany/Turkey; Italy/Russia", [
    seat("england"),
    seat("austria", "france"),
    seat("germany", "turkey"),
    seat("italy", "russia"),
  ]),
  seated("3", "three players: Russia; England/France/Germany; Austria/Italy/Turkey", [
    seat("russia"),
    seat("england", "france", "germany"),
    seat("austria", "italy", "turkey"),
  ]),
  seated(
    "3b",
    "three players (second alternative): England/Germany/Austria; Russia/Italy; France/Turkey",
    [seat("england", "germany", "austria"), seat("russia", "italy"), seat("france", "turkey")],
  ),
  {
    id: "2",
    description:
      "two players (World War I): England/France/Russia against Austria/Germany/Turkey from 1914; Italy neutral until a coin toss before the Fall 1914 adjustments gives it to one side from Spring 1915; 24 units on the board win",
    variant: ww1Variant,
    seats: [seat("england", "france", "russia"), seat("austria", "germany", "turkey")],
    afterPhase: ww1AfterPhase,
    seatVictory: ww1Victory,
  },
];

export const classicalScenarios: readonly Scenario[] = scenarios;
