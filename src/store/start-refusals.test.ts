import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import {
  chmodSync,
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import SQLite from "better-sqlite3";
import { Clock, sevenPlayerGame } from "../judge/testing.ts";
import { openStore } from "./db.ts";

/*
 * `entente serve` refuses, at start, a database it would fail on or write into by mistake
 * (issue 28): a 0-byte file, a foreign file (not SQLite; SQLite of another program), a
 * read-only data folder, a damaged file, a truncated one. Each through bin/entente as a real
 * process: exit 1, and one message on stderr naming the path, the cause and what to do.
 */

const BIN = fileURLToPath(new URL("../../bin/entente", import.meta.url));

interface Ended {
  readonly code: number | null;
  readonly err: string;
}

/** Starts `entente serve --data DIR`; answers when it exits (it must, within 60 s). */
function serve(data: string, runAs: string[] = []): Promise<Ended> {
  const [cmd, args] =
    runAs.length > 0 ? [runAs[0]!, [...runAs.slice(1), BIN]] : [BIN, [] as string[]];
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, [...args, "serve", "--port", "0", "--host", "127.0.0.1", "--data", data], {
      env: { ...process.env, ENTENTE_WARMUP: "0" },
      stdio: ["ignore", "ignore", "pipe"],
      detached: true,
    });
    let err = "";
    const end = (why: string) => {
      try {
        process.kill(-p.pid!, "SIGKILL");
      } catch {}
      reject(new Error(`${why}:\n${err}`));
    };
    p.stderr.on("data", (d: Buffer) => {
      err += d.toString();
      if (/entente judge on http:/.test(err)) end("the server started instead of refusing");
    });
    const timer = setTimeout(() => end("entente serve did not end within 60 s"), 60_000);
    p.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, err });
    });
  });
}

function refusal(r: Ended, path: string, cause: RegExp, todo: RegExp): void {
  assert.equal(r.code, 1, r.err);
  assert.ok(r.err.startsWith("entente serve: "), r.err);
  assert.ok(r.err.includes(path), `the message names ${path}: ${r.err}`);
  assert.match(r.err, cause);
  assert.match(r.err, todo);
  assert.doesNotMatch(r.err, /\n\s+at /, "no stack trace");
}

/** A judge's database with a game played in it, its server stopped. */
async function ententeDatabase(dir: string): Promise<string> {
  const path = join(dir, "good", "entente.sqlite");
  const store = await openStore({ sqlitePath: path });
  try {
    for (let i = 0; i < 4; i++) await sevenPlayerGame(store, {}, new Clock());
  } finally {
    await store.close();
  }
  return path;
}

test("entente serve refuses a database it cannot use, saying which, why and what to do", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "entente-refusals-"));
  t.after(() => {
    chmodSync(dir, 0o755);
    for (const d of ["readonly"]) if (existsSync(join(dir, d))) chmodSync(join(dir, d), 0o755);
    rmSync(dir, { recursive: true, force: true });
  });
  const good = await ententeDatabase(dir);
  const folder = (name: string) => {
    const d = join(dir, name);
    mkdirSync(d);
    return d;
  };

  await t.test("a 0-byte file", async () => {
    const d = folder("empty");
    writeFileSync(join(d, "entente.sqlite"), "");
    refusal(
      await serve(d),
      join(d, "entente.sqlite"),
      /is empty \(0 bytes\)/,
      /delete the file.*restore a backup/,
    );
  });

  await t.test("a file that is not SQLite", async () => {
    const d = folder("foreign");
    writeFileSync(join(d, "entente.sqlite"), "name,score\nalice,3\n".repeat(20));
    refusal(
      await serve(d),
      join(d, "entente.sqlite"),
      /is not a SQLite database \(it begins "name,score/,
      /is --data the judge's folder\? Move the file away/,
    );
  });

  await t.test("another program's SQLite database", async () => {
    const d = folder("other");
    const db = new SQLite(join(d, "entente.sqlite"));
    db.exec("create table invoices (id integer primary key, total real)");
    db.close();
    refusal(
      await serve(d),
      join(d, "entente.sqlite"),
      /is another program's SQLite database \(tables invoices; none of Entente's\)/,
      /Move the file away/,
    );
  });

  await t.test("a truncated file", async () => {
    const d = folder("truncated");
    const path = join(d, "entente.sqlite");
    copyFileSync(good, path);
    const size = statSync(path).size;
    truncateSync(path, Math.floor(size / 2));
    refusal(await serve(d), path, /is truncated: its header says \d+ pages/, /Restore a backup/);
  });

  await t.test("a damaged file (garbage pages)", async () => {
    const d = folder("damaged");
    const path = join(d, "entente.sqlite");
    copyFileSync(good, path);
    const size = statSync(path).size;
    // The last three pages (tables' and indexes' pages, not the schema's) overwritten.
    const fd = openSync(path, "r+");
    const garbage = Buffer.alloc(3 * 4096);
    for (let i = 0; i < garbage.length; i++) garbage[i] = (i * 7919 + 13) % 251;
    writeSync(fd, garbage, 0, garbage.length, size - garbage.length);
    closeSync(fd);
    refusal(await serve(d), path, /is damaged: /, /Restore a backup/);
  });

  await t.test("a read-only data folder", async (tt) => {
    const d = folder("readonly");
    copyFileSync(good, join(d, "entente.sqlite"));
    chmodSync(d, 0o555);
    // root writes anywhere: then the server runs as nobody, for whom the folder is read-only.
    const root = process.getuid?.() === 0;
    if (root && !existsSync("/usr/bin/setpriv")) {
      tt.skip("running as root without setpriv to run the server as another user");
      return;
    }
    if (root) {
      // mkdtemp's folder is private to root: nobody must reach the data folder inside it.
      chmodSync(dir, 0o755);
      chmodSync(join(d, "entente.sqlite"), 0o644);
    }
    const runAs = root
      ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
      : [];
    refusal(
      await serve(d, runAs),
      d,
      /the data folder .* is read-only for this process/,
      /Make it writable by the user running the judge, or choose another --data folder/,
    );
  });

  // And the good database starts (so the checks do not refuse everything).
  const ok = await new Promise<boolean>((resolve) => {
    const p = spawn(
      BIN,
      ["serve", "--port", "0", "--host", "127.0.0.1", "--data", join(dir, "good")],
      {
        env: { ...process.env, ENTENTE_WARMUP: "0" },
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    let err = "";
    const timer = setTimeout(() => p.kill("SIGKILL"), 60_000);
    p.stderr.on("data", (d: Buffer) => {
      err += d.toString();
      if (/entente judge on http:/.test(err)) p.kill("SIGTERM");
    });
    p.once("exit", () => {
      clearTimeout(timer);
      resolve(/entente judge on http:/.test(err));
    });
  });
  assert.ok(ok, "the good database starts");
});
