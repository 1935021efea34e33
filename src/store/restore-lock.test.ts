import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { type ServerProcess, spawnServer } from "../server/process.ts";

/*
 * A restore never replaces a database under a running server (issue 28): `entente restore
 * --force` is refused while a server holds the data folder's database, naming its PID, and
 * allowed once the server has stopped or been killed with -9 (the system releases the lock).
 * A second server on the same folder is refused too.
 */

const BIN = fileURLToPath(new URL("../../bin/entente", import.meta.url));

/** Runs the CLI as a process, bounded in time. */
function cli(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(BIN, args, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    p.stdout.on("data", (d: Buffer) => {
      out += d.toString();
    });
    p.stderr.on("data", (d: Buffer) => {
      err += d.toString();
    });
    const timer = setTimeout(() => {
      p.kill("SIGKILL");
      reject(new Error(`entente ${args.join(" ")} did not end within 60 s:\n${err}`));
    }, 60_000);
    p.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });
}

async function register(base: string, name: string): Promise<number> {
  const r = await fetch(`${base}/api/users`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name, password: "a long enough secret 42" }),
  });
  return r.status;
}

test("restore is refused while a server holds the database, allowed after it stops or is killed", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "entente-restore-lock-"));
  const data = join(dir, "data");
  mkdirSync(data);
  const servers: ServerProcess[] = [];
  t.after(async () => {
    for (const s of servers) await s.kill9();
    rmSync(dir, { recursive: true, force: true });
  });
  const start = async () => {
    const s = await spawnServer({}, ["--data", data]);
    servers.push(s);
    return s;
  };
  const backup = join(dir, "backup.sqlite");

  let server = await start();
  assert.equal(await register(server.base, "before"), 201);
  const b = await cli(["backup", backup, "--data", data]);
  assert.equal(b.code, 0, b.err);
  assert.equal(await register(server.base, "after"), 201);

  // Refused while the server runs: exit 1, the server's PID named, nothing replaced.
  const refused = await cli(["restore", backup, "--force", "--data", data]);
  assert.equal(refused.code, 1, refused.out);
  assert.match(refused.err, new RegExp(`in use by PID ${server.proc.pid} \\(entente serve: `));
  assert.match(refused.err, /nothing was restored: stop it first/);
  // The server still has what it acknowledged after the backup.
  const login = await fetch(`${server.base}/api/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "after", password: "a long enough secret 42" }),
  });
  assert.equal(login.status, 200);

  // A second server on the same folder is refused, naming the first.
  await assert.rejects(start(), (e: Error) => {
    assert.match(e.message, new RegExp(`is in use by PID ${server.proc.pid}`));
    assert.match(e.message, /One SQLite database serves one server/);
    return true;
  });

  // Stopped: the restore goes through.
  await server.stop();
  const restored = await cli(["restore", backup, "--force", "--data", data]);
  assert.equal(restored.code, 0, restored.err);
  assert.match(restored.out, /"restored":/);

  // Killed with -9: its lock went with it; the restore goes through again.
  server = await start();
  assert.equal(await register(server.base, "later"), 201);
  await server.kill9();
  const again = await cli(["restore", backup, "--force", "--data", data]);
  assert.equal(again.code, 0, again.err);

  // And the restored database serves: "before" is in it, "after" and "later" are not.
  server = await start();
  assert.equal(await register(server.base, "before"), 409);
  assert.equal(await register(server.base, "after"), 201);
  await server.stop();
});
