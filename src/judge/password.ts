import { createHash, randomBytes, scrypt, timingSafeEqual } from "node:crypto";

/*
 * Passwords are kept as scrypt hashes with a random salt per user (node's own crypto, no
 * native dependency); tokens are random and kept only as their SHA-256.
 */

const N = 16384;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;

function scryptAsync(password: string, salt: Buffer, n: number, r: number, p: number) {
  return new Promise<Buffer>((resolve, reject) =>
    scrypt(password, salt, KEY_LENGTH, { N: n, r, p, maxmem: 64 * 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, N, R, P);
  return `scrypt$${N}$${R}$${P}$${salt.toString("base64url")}$${key.toString("base64url")}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split("$");
  if (scheme !== "scrypt" || !n || !r || !p || !salt || !key) return false;
  const expected = Buffer.from(key, "base64url");
  const got = await scryptAsync(password, Buffer.from(salt, "base64url"), +n, +r, +p);
  return got.length === expected.length && timingSafeEqual(got, expected);
}

/** A new secret token, as given to the user once. */
export function newToken(): string {
  return `ent_${randomBytes(32).toString("base64url")}`;
}

export function tokenHash(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

const ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789";

/** A random id of letters and digits that cannot be confused (no l, o, 0, 1). */
export function randomId(length: number): string {
  const bytes = randomBytes(length);
  let out = "";
  for (const b of bytes) out += ALPHABET[b % ALPHABET.length];
  return out;
}
