/*
 * Built maps kept on disk between processes. Building a map (cells, names, shapes: geometry.ts)
 * takes 2 to 4 s of CPU for the classical and 1935 boards, and every process that draws one
 * paid it again: a server's first map after each start, each `entente render`, each test file
 * that shows a board. What is drawn (the `MapGeometry`, plain data) is kept in
 * node_modules/.cache/entente-maps (ENTENTE_MAP_CACHE names another folder; `off` keeps
 * nothing), named by a hash of everything it is built from: the provinces, powers and adjacency
 * drawn, the geometry file, whatever else the caller names, the render code (every source file
 * of this folder) and the installed packages (the lock file: Natural Earth's coastlines, d3,
 * polygon clipping). A map whose inputs or code changed is built again, never read stale. A
 * kept map that cannot be read is built again and written over; a folder that cannot be
 * written only means the next process builds too. Files are written whole (a temporary name,
 * then renamed), so a process never reads half of one.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { GeometrySpec, MapSource } from "./geometry-spec.ts";
import type { MapGeometry } from "./types.ts";
import { sha256, writeWhole } from "./whole-file.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");

/** Where maps are kept, or null when keeping is off. */
export function keptDir(env: NodeJS.ProcessEnv = process.env): string | null {
  const set = env.ENTENTE_MAP_CACHE;
  if (set === "off") return null;
  return set || join(root, "node_modules", ".cache", "entente-maps");
}

/** A kept map of another key is deleted a day after it was last written. */
const STALE_MS = 86_400_000;

let codeHash: string | null = null;

/** The render code and the installed packages, hashed once a process. */
function code(): string {
  if (codeHash !== null) return codeHash;
  const h = createHash("sha256");
  for (const f of readdirSync(here).sort()) {
    if (!f.endsWith(".ts") || f.endsWith(".test.ts")) continue;
    h.update(f).update(readFileSync(join(here, f)));
  }
  try {
    h.update(readFileSync(join(root, "package-lock.json")));
  } catch {
    // No lock file (an installed package): the sources are the key.
  }
  codeHash = h.digest("hex");
  return codeHash;
}

/** The key of a map built from `source` and `spec` (and `extra`, anything else it is made from). */
export function mapKey(source: MapSource, spec: GeometrySpec, extra = ""): string {
  const inputs = JSON.stringify({
    id: source.id,
    provinces: source.provinces,
    powers: source.powers,
    adjacent: [...source.adjacent].sort(),
    impassable: [...source.impassable].sort(),
    spec,
    extra,
  });
  return sha256(`${code()}\n${inputs}`).slice(0, 32);
}

/** A file name's safe form of a map's id. */
const safe = (id: string) => id.replace(/[^A-Za-z0-9_-]/g, "_");

/**
 * The map built from `source` and `spec`: read from the kept file if there is one for this key,
 * else built by `build` and kept.
 */
export function keptGeometry(
  source: MapSource,
  spec: GeometrySpec,
  build: () => MapGeometry,
  extra = "",
  dir: string | null = keptDir(),
): MapGeometry {
  if (dir === null) return build();
  const name = `${safe(source.id)}-${mapKey(source, spec, extra)}.json`;
  const file = join(dir, name);
  try {
    const kept = JSON.parse(readFileSync(file, "utf8")) as MapGeometry;
    if (kept && kept.variant === source.id && typeof kept.base === "string") return kept;
  } catch {
    // Not kept yet, or unreadable: built and written below.
  }
  const built = build();
  try {
    mkdirSync(dir, { recursive: true });
    writeWhole(file, JSON.stringify(built));
    prune(dir, source.id, name);
  } catch {
    // A folder that cannot be written: the next process builds the map too.
  }
  return built;
}

/**
 * Deletes this map's files of other keys (older code or data) and parts left by a process that
 * died while writing, once they are a day old.
 */
function prune(dir: string, id: string, keep: string): void {
  const old = Date.now() - STALE_MS;
  const mine = new RegExp(`^${safe(id)}-[0-9a-f]{32}\\.json(\\.\\d+\\.part)?$`);
  for (const f of readdirSync(dir)) {
    if (f === keep || !mine.test(f)) continue;
    const path = join(dir, f);
    try {
      if (statSync(path).mtimeMs < old) rmSync(path, { force: true });
    } catch {
      // Gone already (another process pruned it).
    }
  }
}
