import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after } from "node:test";
import { fileURLToPath } from "node:url";

/* Helpers for the render tests that run the command line: bin/entente, and a folder for it. */

/** The project's command line, as the tests run it. */
export const BIN = fileURLToPath(new URL("../../bin/entente", import.meta.url));

/** A new temporary folder (named from `prefix`), removed after the suite that asks for it. */
export function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
