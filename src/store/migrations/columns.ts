import type { CreateTableBuilder, Kysely } from "kysely";

/*
 * What the migrations share: the two databases (Dialect), the untyped schema they are
 * written over, and `idColumn`, the auto-increment key each database writes its own way.
 */

export type Dialect = "sqlite" | "postgres";

// biome-ignore lint/suspicious/noExplicitAny: Kysely's migration API is typed over an unknown schema
export type AnyDb = Kysely<any>;

export function idColumn<T extends string>(dialect: Dialect, t: CreateTableBuilder<T, never>) {
  return dialect === "postgres"
    ? t.addColumn("id", "bigserial", (c) => c.primaryKey())
    : t.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement());
}
