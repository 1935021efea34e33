import { backupSqlite, restoreSqlite } from "../store/backup.ts";

/*
 * `entente backup FILE` and `entente restore FILE`: the SQLite store of a data folder
 * (src/store/backup.ts). With DATABASE_URL set to PostgreSQL they say which PostgreSQL tool
 * does it instead (docs/judge.md).
 */

export async function cmdBackup(
  cmd: "backup" | "restore",
  opts: { file: string; data?: string | undefined; force?: boolean },
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<string> {
  if (env.DATABASE_URL?.trim()) {
    throw new Error(
      cmd === "backup"
        ? 'DATABASE_URL is PostgreSQL: back it up with pg_dump --format=custom --file=FILE "$DATABASE_URL" (docs/judge.md, "Backups")'
        : 'DATABASE_URL is PostgreSQL: stop every server using it (pg_stat_activity lists them as application_name "entente PID"), then restore with pg_restore --clean --if-exists --dbname="$DATABASE_URL" FILE (docs/judge.md, "Backups")',
    );
  }
  const db = `${(opts.data ?? "data").replace(/\/$/, "")}/entente.sqlite`;
  const summary =
    cmd === "backup"
      ? await backupSqlite(db, opts.file)
      : await restoreSqlite(opts.file, db, { force: opts.force ?? false });
  return `${JSON.stringify({ [cmd === "backup" ? "backup" : "restored"]: summary })}\n`;
}
