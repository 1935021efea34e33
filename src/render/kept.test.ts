import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { getVariant } from "../variants/registry.ts";
import { buildMap, geometrySpec } from "./geometry.ts";
import { type GeometrySpec, sourceOfVariant } from "./geometry-spec.ts";
import { keptDir, keptGeometry, mapKey } from "./kept.ts";
import type { MapGeometry } from "./types.ts";

/*
 * Built maps kept between processes (kept.ts): a server's first board, `entente render` and
 * every process that draws a map read the map an earlier one built, exactly as built, and
 * never one built from other data or code.
 */

const classical = getVariant("classical")!;
const source = sourceOfVariant(classical);
const spec = geometrySpec("classical")!;

function folder(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), "entente-maps-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A build that counts its calls and returns the classical map as built. */
let builtOnce: MapGeometry | null = null;
function counted() {
  builtOnce ??= buildMap(classical, spec).geometry;
  const geometry = builtOnce;
  const build = () => {
    build.calls++;
    return geometry;
  };
  build.calls = 0;
  return { geometry, build };
}

test("a kept map is read back exactly as built, and not built again", (t) => {
  const dir = folder(t);
  const { geometry, build } = counted();
  assert.deepEqual(keptGeometry(source, spec, build, "", dir), geometry);
  assert.equal(build.calls, 1);
  assert.equal(readdirSync(dir).length, 1, "one file, no part left");
  const again = keptGeometry(source, spec, build, "", dir);
  assert.equal(build.calls, 1, "read from the file, not built");
  assert.deepEqual(again, geometry);
});

test("a new process draws the map an earlier one kept (mapGeometry), as it was built", (t) => {
  const dir = folder(t);
  const script = `
    import { getVariant } from ${JSON.stringify(new URL("../variants/registry.ts", import.meta.url).href)};
    import { mapGeometry } from ${JSON.stringify(new URL("./geometry.ts", import.meta.url).href)};
    console.log(mapGeometry(getVariant("classical")).base.slice(0, 40));
  `;
  const run = () => {
    const r = spawnSync(
      process.execPath,
      ["--import", "tsx", "--input-type=module", "-e", script],
      {
        env: { ...process.env, ENTENTE_MAP_CACHE: dir },
        encoding: "utf8",
        timeout: 120_000,
      },
    );
    assert.equal(r.status, 0, r.stderr);
    return r.stdout.trim();
  };
  const built = counted().geometry;
  assert.equal(run(), built.base.slice(0, 40));
  const [file] = readdirSync(dir);
  assert.ok(file, "the first process kept the map");
  const kept = JSON.parse(readFileSync(join(dir, file), "utf8")) as MapGeometry;
  assert.deepEqual(kept, JSON.parse(JSON.stringify(built)), "kept exactly as built");
  // The next process reads it: a mark put in the kept file shows in what it draws.
  writeFileSync(
    join(dir, file),
    JSON.stringify({ ...kept, base: "<g id='read-from-the-kept-file'/>" }),
  );
  assert.equal(run(), "<g id='read-from-the-kept-file'/>");
});

test("a map is built again when its geometry file, its provinces or anything named changes", (t) => {
  const dir = folder(t);
  const { build } = counted();
  keptGeometry(source, spec, build, "", dir);
  const moved: GeometrySpec = structuredClone(spec);
  const lon = Object.values(moved.provinces)[0]!.land![0]!;
  lon[0] += 0.01;
  assert.notEqual(mapKey(source, moved), mapKey(source, spec));
  keptGeometry(source, moved, build, "", dir);
  assert.equal(build.calls, 2, "a changed geometry file builds again");
  const renamed = {
    ...source,
    provinces: source.provinces.map((p) => (p.id === "lon" ? { ...p, name: "Londinium" } : p)),
  };
  keptGeometry(renamed, spec, build, "", dir);
  assert.equal(build.calls, 3, "a renamed province builds again");
  keptGeometry(source, spec, build, "capitals changed", dir);
  assert.equal(build.calls, 4, "a change the caller names builds again");
  keptGeometry(source, spec, build, "", dir);
  assert.equal(build.calls, 4, "the first is still kept");
});

test("a damaged kept map is built again and written over; a folder that cannot be written still draws", (t) => {
  const dir = folder(t);
  const { geometry, build } = counted();
  keptGeometry(source, spec, build, "", dir);
  const [file] = readdirSync(dir);
  writeFileSync(join(dir, file!), '{"variant": "classical", "ba');
  assert.deepEqual(keptGeometry(source, spec, build, "", dir), geometry);
  assert.equal(build.calls, 2);
  assert.deepEqual(keptGeometry(source, spec, build, "", dir), geometry);
  assert.equal(build.calls, 2, "written over whole");

  // A folder that cannot be made (a file stands where it would be): root may write anywhere.
  const blocked = join(folder(t), "a-file");
  writeFileSync(blocked, "");
  const inside = join(blocked, "maps");
  assert.deepEqual(keptGeometry(source, spec, build, "", inside), geometry);
  assert.equal(keptGeometry(source, spec, build, "", null), geometry, "off: built");
});

test("maps of other keys are deleted a day after they were written, others' and fresh ones kept", (t) => {
  const dir = folder(t);
  const old = new Date(Date.now() - 2 * 86_400_000);
  const stale = join(dir, `classical-${"0".repeat(32)}.json`);
  const part = join(dir, `classical-${"1".repeat(32)}.json.123.part`);
  const fresh = join(dir, `classical-${"2".repeat(32)}.json`);
  const other = join(dir, `classical-4p-${"3".repeat(32)}.json`);
  for (const f of [stale, part, fresh, other]) writeFileSync(f, "{}");
  for (const f of [stale, part, other]) utimesSync(f, old, old);
  keptGeometry(source, spec, counted().build, "", dir);
  assert.equal(existsSync(stale), false);
  assert.equal(existsSync(part), false);
  assert.equal(existsSync(fresh), true, "written within the day: a running process may need it");
  assert.equal(existsSync(other), true, "another map's file");
});

test("ENTENTE_MAP_CACHE names the folder, `off` keeps nothing; by default node_modules/.cache", () => {
  assert.equal(keptDir({ ENTENTE_MAP_CACHE: "/srv/maps" }), "/srv/maps");
  assert.equal(keptDir({ ENTENTE_MAP_CACHE: "off" }), null);
  const root = fileURLToPath(new URL("../..", import.meta.url));
  assert.equal(keptDir({}), join(root, "node_modules", ".cache", "entente-maps"));
});
