import { existsSync, statSync } from "node:fs";
import { isIP } from "node:net";
import { readDaidePorts } from "../judge/daide-seats.ts";
import { Judge } from "../judge/judge.ts";
import { readPublicUrl } from "../judge/links.ts";
import type { Bucket } from "../judge/rate.ts";
import { DEFAULT_ORDERS_RATE } from "../judge/submissions.ts";
import { mailConfig, startMail } from "../mail/service.ts";
import { startServer } from "../server/server.ts";
import { DEFAULT_SQLITE_PATH, openStore, StoreError } from "../store/db.ts";
import { migrationProvider } from "../store/migrations.ts";
import { holdSqlite } from "../store/sqlite-lock.ts";
import {
  checkDataFolder,
  checkPages,
  checkSqliteFile,
  damaged,
} from "../store/sqlite-preflight.ts";

/*
 * `entente serve`: the judge on http://localhost:8080 (PORT overrides), with SQLite in
 * ./data, or PostgreSQL when DATABASE_URL says so. Runs until SIGINT or SIGTERM.
 */

export interface ServeOptions {
  readonly port?: string | undefined;
  readonly host?: string | undefined;
  readonly data?: string | undefined;
  /** The SMTP receiver's port and host (docs/email.md); also ENTENTE_SMTP_PORT, _HOST. */
  readonly smtpPort?: string | undefined;
  readonly smtpHost?: string | undefined;
  /** The judge's web address for links in mail (docs/email.md); also ENTENTE_PUBLIC_URL. */
  readonly publicUrl?: string | undefined;
  /** Ports for games with DAIDE seats, FIRST-LAST (docs/daide.md); also ENTENTE_DAIDE_PORTS. */
  readonly daidePorts?: string | undefined;
}

function positiveInt(name: string, v: string | undefined, dflt: number): number {
  if (v === undefined || v === "") return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65535 * 1000)
    throw new Error(`${name} must be a whole number, not "${v}"`);
  return n;
}

/** ENTENTE_TOKEN_IDLE_DAYS: tokens unused this many days expire; 0 never; default 90. */
export function tokenIdle(v: string | undefined): number | null | undefined {
  if (v === undefined || v === "") return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0 || n > 36_500)
    throw new Error(`ENTENTE_TOKEN_IDLE_DAYS must be a number of days (0: never), not "${v}"`);
  return n === 0 ? null : n * 86_400_000;
}

/**
 * The orders-rate quota (src/judge/submissions.ts): ENTENTE_ORDERS_BURST order sets one
 * player may send in one game at once, then ENTENTE_ORDERS_PER_SECOND (fractions allowed:
 * 0.1 is one every ten seconds); ENTENTE_ORDERS_BURST=0 turns the quota off.
 */
export function ordersRate(
  burst: string | undefined,
  perSecond: string | undefined,
): Bucket | null {
  const b = positiveInt("ENTENTE_ORDERS_BURST", burst, DEFAULT_ORDERS_RATE.burst);
  if (b === 0) return null;
  if (perSecond === undefined || perSecond === "")
    return { burst: b, perSecond: DEFAULT_ORDERS_RATE.perSecond };
  const r = Number(perSecond);
  if (!Number.isFinite(r) || r <= 0 || r > 1_000_000)
    throw new Error(
      `ENTENTE_ORDERS_PER_SECOND must be a number above 0 (0.1: one order set every ten seconds), not "${perSecond}"`,
    );
  return { burst: b, perSecond: r };
}

/**
 * ENTENTE_TRUST_PROXY: unset or 0, X-Forwarded-For is ignored; 1, proxies on this machine
 * (loopback) are trusted; otherwise the proxies' addresses, separated by commas.
 */
export function trustProxy(v: string | undefined): boolean | string[] {
  if (v === undefined || v.trim() === "" || v === "0") return false;
  if (v === "1") return true;
  const list = v.split(",").map((a) => a.trim());
  const bad = list.find((a) => isIP(a) === 0);
  if (bad !== undefined) {
    throw new Error(
      `ENTENTE_TRUST_PROXY must be 0, 1 (a proxy on this machine) or the proxies' IP addresses separated by commas; "${bad}" is not an IP address`,
    );
  }
  return list;
}

/** HOST: where to listen; 0.0.0.0 (every interface) unless said otherwise. */
export function bindAddress(v: string | undefined): string {
  const host = v?.trim() || "0.0.0.0";
  if (isIP(host) === 0 && host !== "localhost") {
    throw new Error(
      `HOST must be an IP address to listen on (0.0.0.0 every interface, 127.0.0.1 this machine only, ::), or localhost; not "${host}"`,
    );
  }
  return host;
}

function holdSqliteToServe(path: string) {
  try {
    return holdSqlite(path, "entente serve");
  } catch (e) {
    if (e instanceof StoreError && / is in use by /.test(e.message)) {
      throw new StoreError(
        `${e.message}. One SQLite database serves one server: stop that one, or give this one another --data folder (several servers share a PostgreSQL database: DATABASE_URL)`,
      );
    }
    throw e;
  }
}

/** How long the start waits for the check of a SQLite database's pages (ms). */
const START_CHECK_MS = 2000;
/**
 * Larger databases are not waited for at all: the start does no work that grows with the
 * database (a restart stays quick); their check goes on after the start.
 */
const START_CHECK_BYTES = 64 * 1024 * 1024;

/**
 * Before a SQLite database is opened: the data folder, the lock, the file (src/store/
 * sqlite-preflight.ts); each refusal names the path, the cause and what to do. The check of
 * every page is waited for START_CHECK_MS at most, and not at all beyond START_CHECK_BYTES; a
 * larger database's goes on meanwhile.
 */
async function checkSqlite(path: string, log: (m: string) => void) {
  checkDataFolder(path);
  const hold = holdSqliteToServe(path);
  const migrations = Object.keys(await migrationProvider("sqlite").getMigrations());
  checkSqliteFile(path, migrations);
  if (existsSync(path)) {
    const pages = checkPages(path);
    let timer: NodeJS.Timeout | undefined;
    const first =
      statSync(path).size > START_CHECK_BYTES
        ? null
        : await Promise.race([
            pages,
            new Promise<null>((r) => {
              timer = setTimeout(() => r(null), START_CHECK_MS);
            }),
          ]);
    clearTimeout(timer);
    if (first && !first.ok) throw damaged(path, first);
    if (!first) {
      log(`${path}: the check of its pages goes on after the start (a large database)`);
      return { hold, later: pages };
    }
  }
  return { hold, later: null };
}

export async function serve(opts: ServeOptions): Promise<void> {
  const env = process.env;
  const log = (m: string) => process.stderr.write(`${new Date().toISOString()} ${m}\n`);
  const port = positiveInt("PORT", opts.port ?? env.PORT, 8080);
  // Checked before the database is opened: a wrong setting stops the start at once.
  const host = bindAddress(opts.host ?? env.HOST);
  const proxies = trustProxy(env.ENTENTE_TRUST_PROXY);
  const orders = ordersRate(env.ENTENTE_ORDERS_BURST, env.ENTENTE_ORDERS_PER_SECOND);
  const publicUrl = readPublicUrl(opts.publicUrl ?? env.ENTENTE_PUBLIC_URL);
  const daideText = opts.daidePorts ?? env.ENTENTE_DAIDE_PORTS;
  const daidePorts = daideText ? readDaidePorts(daideText) : null;
  const sqlitePath = opts.data
    ? `${opts.data.replace(/\/$/, "")}/entente.sqlite`
    : DEFAULT_SQLITE_PATH;
  // One server per SQLite database, and no restore under it: the server holds the
  // database's lock for its life (src/store/sqlite-lock.ts); the system releases it however
  // the process ends.
  const checked = env.DATABASE_URL?.trim() ? null : await checkSqlite(sqlitePath, log);
  const hold = checked?.hold;
  const store = await openStore({
    url: env.DATABASE_URL,
    sqlitePath,
    schema: env.ENTENTE_PG_SCHEMA || undefined,
  });
  const judge = new Judge({
    store,
    log,
    failpoint: env.ENTENTE_FAILPOINT || undefined,
    publicUrl,
    ordersRate: orders,
    // Tokens unused this many days expire (default 90; 0: never).
    tokenIdleMs: tokenIdle(env.ENTENTE_TOKEN_IDLE_DAYS),
    daidePorts,
  });
  const mailCfg = mailConfig(
    env,
    { smtpPort: opts.smtpPort, smtpHost: opts.smtpHost },
    opts.data ?? "data",
  );
  const server = await startServer({
    judge,
    mailFrom: mailCfg.from,
    port,
    host,
    tickMs: positiveInt("ENTENTE_TICK_MS", env.ENTENTE_TICK_MS, 1000),
    pollMs: positiveInt("ENTENTE_POLL_MS", env.ENTENTE_POLL_MS, 500),
    // Behind a reverse proxy every request comes from the proxy: rate limits then count the
    // address the proxy names (X-Forwarded-For), which only a trusted proxy may set.
    limits: { trustProxy: proxies },
    // The hot paths compiled before the first player arrives (src/server/warm.ts).
    warmUp: env.ENTENTE_WARMUP !== "0",
    ...(daidePorts ? { daide: {} } : {}),
    log,
  });
  // A damage the page check finds after the start: not ready, said once (readiness.ts).
  void checked?.later?.then((r) => {
    if (!r.ok) server.readiness.noteDamage(damaged(sqlitePath, r).message);
  });
  log(
    `entente judge on http://localhost:${server.port} (listening on ${host}; database ${store.description}; process ${process.pid}); API at /api/docs`,
  );
  if (daidePorts)
    log(
      `DAIDE clients: games created with DAIDE seats take a port of ${daidePorts.first}-${daidePorts.last} (docs/daide.md)`,
    );
  if (proxies !== false) {
    log(
      host === "0.0.0.0" || host === "::"
        ? `trusting X-Forwarded-For from ${proxies === true ? "this machine" : proxies.join(", ")} only; the server also listens on every interface (HOST=127.0.0.1 keeps it behind the proxy)`
        : `trusting X-Forwarded-For from ${proxies === true ? "this machine" : proxies.join(", ")} only`,
    );
  }
  // Play by email: results and reminders always; the receiver and IMAP when configured.
  const mail = await startMail(judge, mailCfg, log);
  if (mail.receiverPort !== null) log(`mail receiver (SMTP) on port ${mail.receiverPort}`);
  const stop = async (signal: string) => {
    log(`${signal}: stopping`);
    await mail.close();
    await server.close();
    await store.close();
    hold?.release();
    process.exit(0);
  };
  process.once("SIGINT", () => void stop("SIGINT"));
  process.once("SIGTERM", () => void stop("SIGTERM"));
}
