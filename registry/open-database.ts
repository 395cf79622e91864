/**
 * Opening the registry's database: a postgres:// URL opens PostgreSQL, anything else the embedded file. Each engine's
 * driver is loaded only when a registry command opens a database, so `flis run` never loads one; apart from
 * database.ts, whose interface the engines implement, so no engine imports the module that loads it.
 */
import { UsageError } from '../errors/flis-error.ts';
import type { Database } from './database.ts';

export function isPostgresUrl(spec: string): boolean {
  return /^postgres(ql)?:\/\//i.test(spec);
}

/** Open the database `spec` names: a postgres:// URL, else the path of the embedded database's file. */
export async function openDatabase(spec: string): Promise<Database> {
  if (isPostgresUrl(spec)) return (await import('./postgres.ts')).openPostgres(spec);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(spec))
    throw new UsageError(
      `--database takes a postgres:// URL or the path of the embedded database's file; got a ${spec.split(':')[0]} URL`,
    );
  return (await import('./sqlite.ts')).openSqlite(spec);
}
