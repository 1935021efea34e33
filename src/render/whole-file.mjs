// Files kept on disk between processes, written whole: under a temporary name beside the
// file, then renamed over it, so that another process reading it finds the old file or the
// new one, never half of one; and the hash that names what is kept. Shared by the two caches
// in node_modules/.cache: the built maps (kept.ts) and `bin/entente`'s bundles (cli/plain.mjs).
// Plain JavaScript, because plain.mjs runs before any TypeScript loader.
import { createHash } from "node:crypto";
import { renameSync, writeFileSync } from "node:fs";

/** The SHA-256 of `data`, in hex. */
export const sha256 = (data) => createHash("sha256").update(data).digest("hex");

/**
 * Writes `file` whole or not at all (another process may be reading or writing it); a part
 * left by a process that died while writing is named `<file>.<pid>.part`.
 */
export function writeWhole(file, data) {
  const part = `${file}.${process.pid}.part`;
  writeFileSync(part, data);
  renameSync(part, file);
}
