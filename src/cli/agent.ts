import { formatOrder } from "../engine/orders.ts";
import { writePosition } from "../engine/position-json.ts";
import { rng } from "../engine/random.ts";
import {
  type Game,
  type GameSave,
  randomLegalOrders,
  type StepResult,
} from "../engine/research.ts";
import { type TypedOrder, typedOrder } from "../engine/research-board.ts";
import type { PowerId } from "../engine/types.ts";
import { loadGame, newGame } from "../index.ts";
import { type Chunks, type LineOutput, pumpLines } from "./lines.ts";

/*
 * `entente agent`: the research API over JSON Lines on stdin and stdout, for agents written
 * in other languages (docs/research.md). One request per line, one answer per line, in
 * order. Every answer has `ok`; a failed request answers `{"ok":false,"error":...}` and the
 * session goes on. A request's `id` (any JSON value) is echoed back.
 */

type Json = Record<string, unknown>;

/** The games of one session, by handle. */
export interface AgentSession {
  readonly games: Map<number, Game>;
  next: number;
}

export const newSession = (): AgentSession => ({ games: new Map(), next: 1 });

class RequestError extends Error {}

const OPS = "new, board, state, legal, step, random, clone, save, load, drop";

function gameOf(s: AgentSession, req: Json): Game {
  const g = req.game;
  if (typeof g !== "number")
    throw new RequestError(`"game" must be the number "new", "clone" or "load" answered`);
  const game = s.games.get(g);
  if (!game) throw new RequestError(`no game ${g} in this session`);
  return game;
}

function add(s: AgentSession, game: Game): number {
  const id = s.next++;
  s.games.set(id, game);
  return id;
}

/** The game's state: phase, units, centres (by power id), winner. */
function state(game: Game): Json {
  const pos = writePosition(game.scenario.variant, game.position);
  return {
    phase: game.phase,
    winner: game.winner,
    position: pos,
    centerCounts: [...game.centerCounts()],
  };
}

function results(game: Game, r: StepResult): Json {
  const b = game.board;
  return {
    phase: r.phase,
    next: r.next,
    winner: r.winner,
    events: r.events,
    results: r.results.map((o) => ({
      power: b.powerIndex(o.power),
      order: o.order ? typedOrder(b, o.order) : null,
      text: o.order ? formatOrder(o.order) : o.text,
      result: o.result,
      reason: o.reason,
      explanation: o.explanation,
    })),
  };
}

/** Answers one request of the protocol. */
export function agentRequest(s: AgentSession, req: unknown): Json {
  if (typeof req !== "object" || req === null || Array.isArray(req))
    throw new RequestError('a request is a JSON object with "op"');
  const r = req as Json;
  switch (r.op) {
    case "new": {
      const game = newGame({
        variant: r.variant === undefined ? undefined : String(r.variant),
        players: r.players === undefined ? undefined : String(r.players),
        rules: r.rules,
        seed: typeof r.seed === "number" ? r.seed : 0,
      });
      return { game: add(s, game), ...state(game) };
    }
    case "board": {
      const b = gameOf(s, r).board;
      return {
        provinces: b.provinces,
        powers: b.powers,
        kind: [...b.kind],
        supplyCenter: [...b.supplyCenter],
        home: [...b.home],
        armyStart: [...b.armyStart],
        armyTo: [...b.armyTo],
        fleetStart: [...b.fleetStart],
        fleetTo: [...b.fleetTo],
      };
    }
    case "state":
      return state(gameOf(s, r));
    case "legal":
      return { phase: gameOf(s, r).phase, choices: gameOf(s, r).legalOrders() };
    case "step": {
      const game = gameOf(s, r);
      if (Array.isArray(r.orders)) return results(game, game.step(r.orders as TypedOrder[]));
      if (typeof r.texts === "object" && r.texts !== null && !Array.isArray(r.texts)) {
        const texts = new Map<PowerId, string[]>();
        for (const [p, list] of Object.entries(r.texts as Json)) {
          if (!Array.isArray(list) || !list.every((t) => typeof t === "string"))
            throw new RequestError(`texts.${p} must be a list of order texts`);
          texts.set(p as PowerId, list as string[]);
        }
        return results(game, game.stepText(texts));
      }
      throw new RequestError(
        'step needs "orders" (a list of typed orders) or "texts" (order texts per power id)',
      );
    }
    case "random": {
      // Random legal orders (a baseline agent), as typed orders: for powers that are played.
      const game = gameOf(s, r);
      const seed = typeof r.seed === "number" ? r.seed : 0;
      const orders = randomLegalOrders(game, rng(seed)).map((o) => typedOrder(game.board, o));
      return { orders };
    }
    case "clone":
      return { game: add(s, gameOf(s, r).clone()) };
    case "save":
      return { save: gameOf(s, r).save() };
    case "load": {
      if (typeof r.save !== "object" || r.save === null)
        throw new RequestError('load needs "save", as "save" answered it');
      const game = loadGame(r.save as GameSave);
      return { game: add(s, game), ...state(game) };
    }
    case "drop":
      gameOf(s, r);
      s.games.delete(r.game as number);
      return {};
    default:
      throw new RequestError(`unknown op ${JSON.stringify(r.op)}; known: ${OPS}`);
  }
}

/** One line in, one line out. */
export function agentLine(s: AgentSession, line: string): string {
  let req: unknown;
  let id: unknown;
  try {
    req = JSON.parse(line);
  } catch (e) {
    return JSON.stringify({
      ok: false,
      error: `not JSON: ${e instanceof Error ? e.message : String(e)}`,
    });
  }
  if (typeof req === "object" && req !== null && "id" in req) id = (req as Json).id;
  const echo = id === undefined ? {} : { id };
  try {
    return JSON.stringify({ ...echo, ok: true, ...agentRequest(s, req) });
  } catch (e) {
    return JSON.stringify({
      ...echo,
      ok: false,
      error: e instanceof Error ? e.message : String(e),
    });
  }
}

/**
 * Serves the protocol until the input ends: each request answered as soon as it is read,
 * waiting while the reader of the answers is behind (lines.ts). Lines end at "\n", "\r" or
 * "\r\n", as node:readline cuts them.
 */
export async function runAgent(input: Chunks, output: LineOutput): Promise<void> {
  const s = newSession();
  await pumpLines(
    input,
    output,
    {
      line: (line) => (line.trim() === "" ? "" : `${agentLine(s, line)}\n`),
      end: () => "",
    },
    true,
  );
}
