import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { randomBytes, scryptSync } from "node:crypto";
import { test } from "node:test";
import {
  DEFAULT_SCRYPT_COST,
  hashPassword,
  SCRYPT_COST,
  scryptCost,
  verifyPassword,
} from "./password.ts";

test("scrypt's cost: 16,384 unless ENTENTE_SCRYPT_COST names a power of two from 1,024 to 65,536", () => {
  assert.equal(DEFAULT_SCRYPT_COST, 16384);
  assert.equal(scryptCost(undefined), 16384);
  assert.equal(scryptCost(" "), 16384);
  assert.equal(scryptCost("1024"), 1024);
  assert.equal(scryptCost("65536"), 65536);
  for (const bad of ["1000", "512", "131072", "cheap", "1024.5", "-1024"]) {
    assert.throws(
      () => scryptCost(bad),
      new RegExp(
        `^Error: ENTENTE_SCRYPT_COST=${bad.replace(".", "\\.")}: scrypt's cost must be a power of two from 1024 to 65536 \\(unset, it is 16384\\)$`,
      ),
    );
  }
});

test("a judge started without ENTENTE_SCRYPT_COST hashes at the default cost", () => {
  const env = { ...process.env };
  delete env.ENTENTE_SCRYPT_COST;
  const printed = execFileSync(
    process.execPath,
    [
      "--import",
      "tsx",
      "--input-type=module",
      "-e",
      `const p = await import(${JSON.stringify(new URL("./password.ts", import.meta.url).href)}); console.log(await p.hashPassword("lantern violet orbit"));`,
    ],
    { env, encoding: "utf8" },
  );
  assert.match(printed.trim(), /^scrypt\$16384\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
});

test("a hash is verified at the cost it names, whatever the cost of new hashes", async () => {
  const salt = randomBytes(16);
  const key = scryptSync("lantern violet orbit", salt, 32, { N: 16384, r: 8, p: 1 });
  const stored = `scrypt$16384$8$1$${salt.toString("base64url")}$${key.toString("base64url")}`;
  assert.equal(await verifyPassword("lantern violet orbit", stored), true);
  assert.equal(await verifyPassword("lantern violet orbit!", stored), false);
  const fresh = await hashPassword("lantern violet orbit");
  assert.ok(fresh.startsWith(`scrypt$${SCRYPT_COST}$8$1$`), fresh);
  assert.equal(await verifyPassword("lantern violet orbit", fresh), true);
  assert.equal(
    await verifyPassword("lantern violet orbit", stored.replace("$16384$", "$1024$")),
    false,
  );
});
