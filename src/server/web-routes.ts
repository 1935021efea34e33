import { adjudicate } from "../engine/adjudicate.ts";
import { legalMovementOrders } from "../engine/legal.ts";
import { legalAdjustmentOrders } from "../engine/legal-adjustments.ts";
import { legalRetreatOrders } from "../engine/legal-retreats.ts";
import { formatOrder, type Order } from "../engine/orders.ts";
import {
  PositionError,
  positionProblem,
  readOrders,
  readPosition,
  writePosition,
  writeResult,
} from "../engine/position-json.ts";
import { DATC_RULES, type RuleOptions, readRules } from "../engine/rules.ts";
import { checkSequential } from "../engine/sequential-schedule.ts";
import { dislodgedKey, type Position, type PowerId, type Unit } from "../engine/types.ts";
import type { Variant } from "../engine/variant.ts";
import {
  CHAIR_STAGES,
  type ChairLengths,
  chairResolve,
  chairTimer,
  isChaired,
  setChairMode,
  setChairTimer,
  type TimerAction,
} from "../judge/chair.ts";
import { forbidden, invalid, notFound, tooMuch, unauthenticated } from "../judge/errors.ts";
import type { Judge, User } from "../judge/judge.ts";
import { readSubmission } from "../judge/orders.ts";
import { lostSeats } from "../judge/seat-loss.ts";
import { getVariant, variantIds } from "../variants/registry.ts";
import { documented } from "./responses.ts";
import { type Route, route } from "./router.ts";
import { anyJson, bool, either, int, list, obj, oneOf, optional, str } from "./schema.ts";

/*
 * The API routes only the web client needs: the legal orders of the viewer's powers (as the
 * click-to-order interface needs them), an order set checked as it is typed (nothing stored),
 * the sandbox (adjudicate any position; nothing stored), the viewer's games, and the chair's
 * controls (src/judge/chair.ts). Its pages and script are web.ts's.
 */

/** One legal order: its canonical text and the provinces a click may pick it by. */
export interface LegalChoice {
  readonly text: string;
  readonly kind: string;
  /** Where the unit (or the supported or convoyed one) goes. */
  readonly target?: string;
  /** The supported or convoyed unit's province. */
  readonly from?: string;
}

/** The orders one unit (or one build site, or "waive") may be given. */
export interface LegalUnit {
  readonly power: string;
  /** `par`, `stp/sc`; "waive" for a power's waive. */
  readonly location: string;
  readonly province: string;
  /** "A par", "build site par", "waive". */
  readonly label: string;
  readonly dislodged?: boolean;
  readonly orders: readonly LegalChoice[];
}

export interface LegalView {
  readonly phase: string;
  readonly type: "M" | "R" | "A";
  /** Adjustments: per power, how many orders it gives (builds due or removals owed). */
  readonly counts: Readonly<Record<string, number>>;
  readonly units: readonly LegalUnit[];
}

const locText = (l: { province: string; coast: string | null }) =>
  l.coast ? `${l.province}/${l.coast}` : l.province;

function choice(o: Order): LegalChoice {
  const text = formatOrder(o);
  switch (o.kind) {
    case "move":
    case "retreat":
      return { text, kind: o.kind, target: o.to.province };
    case "support":
      return o.to === null
        ? { text, kind: o.kind, from: o.target }
        : { text, kind: o.kind, from: o.target, target: o.to };
    case "convoy":
      return { text, kind: o.kind, from: o.from, target: o.to };
    default:
      return { text, kind: o.kind };
  }
}

/** The legal orders of `powers` (all powers when null) in a position. */
export function legalView(
  variant: Variant,
  position: Position,
  rules: RuleOptions,
  powers: readonly string[] | null,
): LegalView {
  const mine = (p: string) => powers === null || powers.includes(p);
  const phase = writePosition(variant, position).phase;
  const type = position.phase.type;
  const units: LegalUnit[] = [];
  const counts: Record<string, number> = {};
  /** A unit (dislodged or not) and its legal orders. */
  const withOrders = (u: Unit, orders: readonly Order[] = [], dislodged = false): LegalUnit => ({
    power: u.power,
    location: locText(u),
    province: u.province,
    label: `${u.type} ${locText(u)}${dislodged ? " (dislodged)" : ""}`,
    ...(dislodged ? { dislodged } : {}),
    orders: orders.map(choice),
  });
  if (type === "M") {
    const legal = legalMovementOrders(variant, position, rules);
    for (const u of position.units)
      if (mine(u.power)) units.push(withOrders(u, legal.get(u.province)));
  } else if (type === "R") {
    const legal = legalRetreatOrders(variant, position, rules);
    for (const u of position.dislodged)
      if (mine(u.power)) units.push(withOrders(u, legal.get(dislodgedKey(u)), true));
  } else {
    for (const [power, { count, orders }] of legalAdjustmentOrders(variant, position, rules)) {
      if (!mine(power)) continue;
      counts[power] = count;
      const bySite = new Map<string, Order[]>();
      for (const o of orders) {
        const key = o.kind === "waive" ? "waive" : o.unit.province;
        bySite.set(key, [...(bySite.get(key) ?? []), o]);
      }
      for (const [key, list] of bySite) {
        const first = list[0]!;
        const label =
          first.kind === "waive"
            ? "waive a build"
            : first.kind === "build"
              ? `build in ${key}`
              : `${first.unit.type} ${locText(first.unit)}`;
        units.push({
          power,
          location: key,
          province: key,
          label,
          orders: list.map(choice),
        });
      }
    }
  }
  return { phase, type, counts, units };
}

// ---------------------------------------------------------------------------------------------
// The sandbox: any position, any orders; nothing stored

const positionSchema = {
  variant: optional(str({ max: 40, description: "default classical" })),
  phase: str({ max: 10, example: "S1901M" }),
  units: anyJson('power: ["A par", "F bre", ...]'),
  dislodged: optional(anyJson("power: [{unit, from}]")),
  contested: optional(anyJson("provinces where a standoff left them empty")),
  centers: optional(anyJson("power: [centres]")),
  rules: optional(anyJson("a rule profile name or rule options; default datc")),
};

function sandboxInput(body: Record<string, unknown>): {
  variant: Variant;
  position: Position;
  rules: RuleOptions;
} {
  const id = typeof body.variant === "string" ? body.variant : "classical";
  const variant = getVariant(id);
  if (!variant) throw invalid(`unknown variant "${id}"; known: ${variantIds().join(", ")}`);
  let rules = DATC_RULES;
  if (body.rules !== undefined) {
    const r = readRules(body.rules);
    if (!r.ok) throw invalid(r.error);
    rules = r.rules;
  }
  try {
    const position = readPosition({ ...body, variant: id }, variant);
    const problem = positionProblem(variant, position) ?? checkSequential(variant, position, rules);
    if (problem) throw invalid(problem);
    return { variant, position, rules };
  } catch (e) {
    if (e instanceof PositionError) throw invalid(e.message);
    throw e;
  }
}

/**
 * The work one sandbox request may ask for. Units are bounded by the map already (one per
 * province, dislodged ones one per power and province) and a request is one phase; orders are
 * bounded here: at most two per province of the map in all (classical: 150), where a body of
 * 1 MB could otherwise carry 60 000 order lines, seconds of a core to read (docs/reliability.md).
 */
export const SANDBOX_ORDERS_PER_PROVINCE = 2;

function sandboxOrders(variant: Variant, orders: ReadonlyMap<PowerId, readonly string[]>) {
  const most = SANDBOX_ORDERS_PER_PROVINCE * variant.map.provinces.length;
  const n = [...orders.values()].reduce((sum, list) => sum + list.length, 0);
  if (n > most) {
    throw tooMuch(
      `${n} order lines is more than the sandbox adjudicates in one request: at most ${most} (two per province of the ${variant.id} map); send one order per unit`,
    );
  }
  return orders;
}

// ---------------------------------------------------------------------------------------------
// Routes

const need = (u: User | null): User => {
  if (!u) throw unauthenticated("log in first: send Authorization: Bearer <token>");
  return u;
};

/** The board, rules and powers of a game as its viewer sees them. */
async function gameBoard(judge: Judge, user: User | null, gameId: string) {
  const view = await judge.views.gameView(user, gameId);
  const variant = getVariant(view.variant);
  if (!variant) throw notFound(`the variant "${view.variant}" is not installed here`);
  const position = readPosition(view.position as unknown as Record<string, unknown>, variant);
  return { view, variant, position, rules: view.rules as RuleOptions };
}

export function webRoutes(judge: Judge): Route[] {
  return [
    route({
      method: "GET",
      path: "/api/variants/{id}/start",
      response: documented(
        "the start position (docs/adjudicate-json.md, position) and the variant's powers",
      ).json,
      tag: "web",
      summary: "A variant's start position (position JSON) and its powers",
      auth: "none",
      handler: async (c) => {
        const v = getVariant(c.params.id!);
        if (!v)
          throw notFound(`unknown variant "${c.params.id}"; known: ${variantIds().join(", ")}`);
        return {
          position: writePosition(v, v.start),
          powers: v.powers.map((p) => ({
            id: p.id,
            name: p.name,
            adjective: p.adjective,
            ...(p.aliases ? { aliases: [...p.aliases] } : {}),
          })),
        };
      },
    }),
    route({
      method: "GET",
      path: "/api/my/games",
      response: documented(
        "a list of your games with your role (and seat), the deadlines and, where you lost your seat and hold none, how (lostSeat, as in GET /api/games/{id})",
      ).json,
      tag: "web",
      summary: "The games you play, observe or run, with your role and the deadlines",
      auth: "required",
      handler: async (c) => {
        const user = need(c.user);
        const rows = await judge.store.db
          .selectFrom("members")
          .select(["game_id", "role", "seat"])
          .where("user_id", "=", user.id)
          .execute();
        const role = new Map(rows.map((r) => [r.game_id, r]));
        // Where the user holds no seat, whether they lost one there (src/judge/seat-loss.ts).
        const lost = await lostSeats(
          judge.store.db,
          user.name,
          rows.filter((r) => r.role !== "gm" && r.seat === null).map((r) => r.game_id),
        );
        const games = await judge.games.listGames();
        return games
          .filter((g) => role.has(g.id))
          .map((g) => ({
            ...g,
            role: role.get(g.id)!.role,
            seat: role.get(g.id)!.seat,
            ...(lost.has(g.id) ? { lostSeat: lost.get(g.id) } : {}),
          }));
      },
    }),
    route({
      method: "GET",
      path: "/api/games/{id}/legal",
      response: documented("every legal order, per power and unit").json,
      tag: "orders",
      summary: "Every legal order of your powers in the open phase (the GM: of every power)",
      auth: "optional",
      handler: async (c) => {
        const { view, variant, position, rules } = await gameBoard(judge, c.user, c.params.id!);
        const powers = view.you?.role === "gm" ? null : (view.you?.powers ?? []);
        return legalView(variant, position, rules, powers);
      },
    }),
    route({
      method: "POST",
      path: "/api/games/{id}/check",
      response: documented(
        "a diagnostic per line, as POST /api/games/{id}/orders gives, nothing stored",
      ).json,
      tag: "orders",
      summary: "Read an order set as it is typed: a diagnostic per line; nothing is stored",
      auth: "required",
      body: obj({
        orders: either(
          list(str({ max: 200 }), { max: 500 }),
          str({ max: 50_000 }),
          "lines or text",
        ),
        power: optional(str({ max: 40 })),
      }),
      handler: async (c) => {
        const { view, variant, position, rules } = await gameBoard(
          judge,
          need(c.user),
          c.params.id!,
        );
        const powers = (view.you?.role === "player" ? view.you.powers : []) as PowerId[];
        if (powers.length === 0) throw forbidden("only a player with a seat has orders to check");
        const read = readSubmission(variant, position, rules, powers, c.body);
        return {
          phase: view.phase,
          final: read.final,
          powers: [...read.sets].map(([power, orders]) => ({ power, orders })),
          lines: read.lines,
        };
      },
    }),
    route({
      method: "POST",
      path: "/api/sandbox/adjudicate",
      response: documented("the adjudication result (docs/adjudicate-json.md, the result)").json,
      tag: "sandbox",
      summary:
        "Adjudicate any position with any orders (results with explanations); nothing stored",
      auth: "none",
      body: obj({ ...positionSchema, orders: optional(anyJson("power: [order texts]")) }),
      responses: {
        422: "more order lines than one request may carry (two per province of the map)",
      },
      handler: async (c) => {
        const body = c.body as Record<string, unknown>;
        const { variant, position, rules } = sandboxInput(body);
        try {
          const orders = sandboxOrders(variant, readOrders(body, variant));
          return writeResult(variant, adjudicate(variant, position, orders, rules));
        } catch (e) {
          if (e instanceof PositionError) throw invalid(e.message);
          throw e;
        }
      },
    }),
    route({
      method: "POST",
      path: "/api/sandbox/legal",
      response: documented("every legal order, per power and unit").json,
      tag: "sandbox",
      summary: "Every legal order of every power in any position",
      auth: "none",
      body: obj(positionSchema),
      handler: async (c) => {
        const { variant, position, rules } = sandboxInput(c.body as Record<string, unknown>);
        return legalView(variant, position, rules, null);
      },
    }),
    route({
      method: "GET",
      path: "/api/games/{id}/chair",
      response: documented(
        "chaired: whether chaired play is on; toOrder; timer: the chairs' timer (stage, length, running, endsAt or remainingMs, now); for the chair, which powers have sent orders",
      ).json,
      tag: "game master",
      summary:
        "Chaired play: whether it is on, the chairs' timer; for the chair, which powers have sent orders",
      auth: "optional",
      handler: async (c) => {
        const id = c.params.id!;
        const view = await judge.views.gameView(c.user, id);
        const chaired = await isChaired(judge.store.db, id);
        const timer = await chairTimer(judge, id);
        if (view.you?.role !== "gm" || !c.user) return { chaired, toOrder: view.toOrder, timer };
        const sets = await judge.submissions.currentOrders(c.user, id);
        return {
          chaired,
          toOrder: view.toOrder,
          timer,
          received: sets.sets.map((s) => ({
            power: s.power,
            final: s.final,
            orders: s.orders.length,
          })),
        };
      },
    }),
    route({
      method: "POST",
      path: "/api/games/{id}/chair",
      response: documented("chaired play on or off, and the game").json,
      tag: "game master",
      summary: "GM: turn chaired play on (no deadlines; the chair resolves) or off",
      auth: "required",
      body: obj({ on: bool("true: chaired; false: deadlines again") }),
      handler: async (c) => setChairMode(judge, need(c.user), c.params.id!, c.body.on),
    }),
    route({
      method: "POST",
      path: "/api/games/{id}/chair/timer",
      response: documented("the chairs' timer, as GET /api/games/{id}/chair carries it").json,
      tag: "game master",
      summary:
        "GM (the chair): start a speech, diplomacy or orders timer, pause, resume, reset it, or set the lengths; everybody in the game sees it",
      auth: "required",
      body: obj({
        action: oneOf(["start", "pause", "resume", "reset", "lengths"] as const),
        stage: optional(oneOf(CHAIR_STAGES, "start: the stage timed (speech, diplomacy, orders)")),
        seconds: optional(
          int({
            min: 1,
            max: 86_400,
            description: "start: the length, in seconds; default the stage's length",
          }),
        ),
        lengths: optional(
          obj({
            speech: optional(int({ min: 1, max: 86_400, description: "seconds; default 300" })),
            firstDiplomacy: optional(
              int({
                min: 1,
                max: 86_400,
                description: "diplomacy before the first turn, seconds; default 1800 (seed 000)",
              }),
            ),
            diplomacy: optional(
              int({
                min: 1,
                max: 86_400,
                description: "diplomacy before later turns, seconds; default 900 (seed 000)",
              }),
            ),
            orders: optional(int({ min: 1, max: 86_400, description: "seconds; default 600" })),
          }),
        ),
      }),
      handler: async (c) => {
        const b = c.body;
        let a: TimerAction;
        if (b.action === "start") {
          if (!b.stage) throw invalid("start needs a stage: speech, diplomacy or orders");
          a = { action: "start", stage: b.stage, seconds: b.seconds };
        } else if (b.action === "lengths") {
          if (!b.lengths) {
            throw invalid(
              "lengths needs lengths: {speech, firstDiplomacy, diplomacy, orders} in seconds",
            );
          }
          const l: Partial<Record<keyof ChairLengths, number>> = {};
          for (const [k, v] of Object.entries(b.lengths)) {
            if (typeof v === "number") l[k as keyof ChairLengths] = v;
          }
          a = { action: "lengths", lengths: l };
        } else a = { action: b.action };
        return setChairTimer(judge, need(c.user), c.params.id!, a);
      },
    }),
    route({
      method: "POST",
      path: "/api/games/{id}/chair/resolve",
      response: documented("the phase resolved: its orders and results").json,
      tag: "game master",
      summary: "GM: reveal and resolve the open phase now; answers with its orders and results",
      auth: "required",
      handler: async (c) => chairResolve(judge, need(c.user), c.params.id!),
    }),
  ];
}
