import { createHash } from "node:crypto";
import { Worker } from "node:worker_threads";
import type { GameRecord } from "../engine/record.ts";
import { invalid, notFound } from "../judge/errors.ts";
import type { Judge } from "../judge/judge.ts";
import { type ExportOptions, recordFrames } from "../render/export.ts";
import { NoGeometryError } from "../render/geometry.ts";
import { svgToPng } from "../render/png.ts";
import { hasMap } from "../render/serve.ts";
import { getVariant } from "../variants/registry.ts";
import { type Ctx, type Route, route } from "./router.ts";
import { text } from "./schema.ts";

/*
 * A game's history as pictures for the game page's download buttons (docs/web.md): the
 * animated GIF of the game so far and the PNG of one phase, drawn by src/render/export.ts
 * from the record the viewer may read (`recordFor`: the adjudicated phases, public once
 * adjudicated, and the board as it stands; never an order not yet adjudicated). Drawing a
 * GIF takes seconds for a long game, so it is drawn in a worker thread (pictures-worker.ts),
 * one at a time, and each is kept (a few, the latest) until the record changes.
 */

const GIF_WIDTH = 800;
const KEEP = 8;
const kept = new Map<string, Promise<Buffer>>();

/** The picture for this key, drawn once while the record it was drawn from stays the same. */
function once(key: string, draw: () => Buffer | Promise<Buffer>): Promise<Buffer> {
  let hit = kept.get(key);
  if (!hit) {
    hit = Promise.resolve().then(draw);
    hit.catch(() => kept.delete(key));
    kept.set(key, hit);
    if (kept.size > KEEP) kept.delete(kept.keys().next().value as string);
  }
  return hit;
}

let queue: Promise<unknown> = Promise.resolve();

/**
 * The game's GIF drawn in a worker thread, after any other being drawn (two cores at most
 * are shared with the judge). A worker does not inherit the TypeScript loader: it registers
 * tsx, then loads the worker module (as the CLI's self-play does).
 */
function gifInWorker(record: GameRecord, palette: string): Promise<Buffer> {
  const url = new URL("./pictures-worker.ts", import.meta.url).href;
  const tsx = import.meta.resolve("tsx/esm/api");
  const boot = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(url)}); });`;
  const run = () =>
    new Promise<Buffer>((resolve, reject) => {
      const w = new Worker(boot, { eval: true, workerData: { record, palette, width: GIF_WIDTH } });
      w.once("message", (m: Uint8Array) =>
        resolve(Buffer.from(m.buffer, m.byteOffset, m.byteLength)),
      );
      w.once("error", reject);
      w.once("exit", (code) => {
        if (code !== 0) reject(new Error(`the GIF worker stopped with code ${code}`));
      });
    });
  const drawn = queue.then(run, run);
  queue = drawn.catch(() => undefined);
  return drawn;
}

function paletteOf(c: Ctx<unknown>): NonNullable<ExportOptions["palette"]> {
  const p = c.query.get("palette") ?? "standard";
  if (p !== "standard" && p !== "colorblind") {
    throw invalid(`palette is standard or colorblind, not ${p}`);
  }
  return p;
}

async function readable(judge: Judge, c: Ctx<unknown>) {
  const record = (await judge.views.recordFor(c.user, c.params.id!)) as unknown as GameRecord;
  const variant = getVariant(record.variant);
  if (!variant) throw notFound(`a game of ${record.variant} has no board to draw`);
  const hash = createHash("sha256")
    .update(JSON.stringify([record.start, record.phases]))
    .digest("hex")
    .slice(0, 20);
  return { record, variant, hash };
}

function send(c: Ctx<unknown>, type: string, file: string, body: Buffer, etag: string) {
  if (c.req.headers["if-none-match"] === etag) {
    c.res.writeHead(304, { etag });
    c.res.end();
    return { streamed: true } as const;
  }
  c.res.writeHead(200, {
    "content-type": type,
    "content-length": body.length,
    "content-disposition": `attachment; filename="${file}"`,
    // The game goes on: ask again each time (the ETag makes it cheap).
    "cache-control": "private, no-cache",
    etag,
  });
  c.res.end(body);
  return { streamed: true } as const;
}

const fileName = (id: string, what: string, ext: string) =>
  `entente-${id.replace(/[^A-Za-z0-9_-]/g, "")}-${what}.${ext}`;

export function pictureRoutes(judge: Judge): Route[] {
  return [
    route({
      method: "GET",
      path: "/api/games/{id}/history.gif",
      response: text("an animated GIF (Content-Type image/gif)").json,
      tag: "games",
      summary:
        "The game so far as an animated GIF: each adjudicated phase with its orders and results, then the board now",
      description:
        "Drawn from the record you may read (as GET /api/games/{id}/record): orders appear only once adjudicated. 800 pixels wide, 1.5 s a frame, the last held longer.",
      auth: "optional",
      query: { palette: "standard (default) or colorblind" },
      responses: { 404: "no such game, or its variant has no board to draw" },
      handler: async (c) => {
        const palette = paletteOf(c);
        const { record, variant, hash } = await readable(judge, c);
        if (!hasMap(variant.id)) throw notFound(`${variant.id} has no map to draw`);
        const gif = await once(`${hash}.${palette}.gif`, () => gifInWorker(record, palette));
        return send(
          c,
          "image/gif",
          fileName(c.params.id!, "game", "gif"),
          gif,
          `"${hash}-${palette}"`,
        );
      },
    }),
    route({
      method: "GET",
      path: "/api/games/{id}/history.png",
      response: text("a PNG (Content-Type image/png)").json,
      tag: "games",
      summary: "One phase of the game drawn as a PNG, with its orders and results",
      description:
        "A phase adjudicated so far (its orders and results drawn), or the phase now (the board only).",
      auth: "optional",
      query: {
        phase: "the phase, as S1901M (default: the phase now)",
        palette: "standard or colorblind",
      },
      responses: { 400: "the record has no such phase", 404: "no such game, or no board to draw" },
      handler: async (c) => {
        const palette = paletteOf(c);
        const { record, variant, hash } = await readable(judge, c);
        let frames: ReturnType<typeof recordFrames>;
        try {
          frames = recordFrames(variant, record, { palette });
        } catch (e) {
          throw e instanceof NoGeometryError ? notFound(e.message) : e;
        }
        const want = (c.query.get("phase") ?? frames[frames.length - 1]!.phase).toUpperCase();
        const frame = frames.find((f) => f.phase.toUpperCase() === want);
        if (!frame) {
          throw invalid(
            `the game has no phase ${want} yet; its phases are ${frames.map((f) => f.phase).join(", ")}`,
          );
        }
        const png = await once(`${hash}.${palette}.${frame.phase}.png`, () => svgToPng(frame.svg));
        return send(
          c,
          "image/png",
          fileName(c.params.id!, frame.phase, "png"),
          png,
          `"${hash}-${palette}-${frame.phase}"`,
        );
      },
    }),
  ];
}
