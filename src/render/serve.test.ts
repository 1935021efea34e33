import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, test } from "node:test";
import { gunzipSync } from "node:zlib";
import { hasMap, sendMap } from "./serve.ts";
import type { MapGeometry } from "./types.ts";

/* The map over HTTP, as the API routes serve it (src/server/routes/catalogue.ts). */

const server = createServer((req, res) => {
  const m = /^\/(\w+)\/(geometry|start)$/.exec(req.url ?? "");
  if (!m || !hasMap(m[1] as string)) {
    res.writeHead(404).end();
    return;
  }
  sendMap(m[1] as string, m[2] as "geometry" | "start", req, res);
});
let base = "";
before(async () => {
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => server.close());

test("the geometry is JSON with a long cache lifetime, gzipped on request, and revalidates", async () => {
  const r = await fetch(`${base}/classical/geometry`);
  assert.equal(r.status, 200, "ok");
  assert.match(r.headers.get("cache-control") ?? "", /max-age=86400/, "cached a day");
  const g = (await r.json()) as MapGeometry;
  assert.equal(Object.keys(g.provinces).length, 75, "75 provinces");
  assert.match(g.base, /id="prov-lon"/, "the base map");
  const etag = r.headers.get("etag") as string;
  const again = await fetch(`${base}/classical/geometry`, { headers: { "if-none-match": etag } });
  assert.equal(again.status, 304, "not modified");
  const svg = await fetch(`${base}/classical/start`);
  assert.match(svg.headers.get("content-type") ?? "", /image\/svg\+xml/, "an SVG");
  assert.match(await svg.text(), /class="unit"/, "with the units");
  assert.equal(hasMap("nowhere"), false, "no map for an unknown variant");
  const raw = await new Promise<Buffer>((ok) => {
    import("node:http").then(({ get }) =>
      get(`${base}/classical/geometry`, { headers: { "accept-encoding": "gzip" } }, (res) => {
        const parts: Buffer[] = [];
        res.on("data", (c: Buffer) => parts.push(c));
        res.on("end", () => ok(Buffer.concat(parts)));
      }),
    );
  });
  assert.equal(JSON.parse(gunzipSync(raw).toString()).variant, "classical", "gzipped JSON");
});
