/**
 * The registry on PostgreSQL (a team server), through `pg`. Each unit of work is one transaction on a pooled
 * connection; 64-bit integers are read as numbers (the registry's ids and times stay far below 2^53).
 */
import { UsageError } from '../errors/flis-error.ts';
import { type Database, type Param, printableUrl, type Query, type Row } from './database.ts';

/** `?` placeholders as PostgreSQL numbers them ($1, $2, …); the registry's SQL holds no `?` inside a literal. */
export function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

export async function openPostgres(url: string): Promise<Database> {
  const pg = (await import('pg')).default;
  const int8 = (v: string) => Number(v);
  const pool = new pg.Pool({
    connectionString: url,
    max: 8,
    connectionTimeoutMillis: 10_000,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === 20 ? int8 : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
    },
  });
  // An idle connection the server dropped must not end the registry: the next unit of work takes another.
  pool.on('error', () => {});
  const where = printableUrl(url);
  try {
    const c = await pool.connect();
    c.release();
  } catch (e) {
    await pool.end().catch(() => {});
    throw new UsageError(`--database ${where}: ${(e as Error).message.split('\n')[0]}`);
  }
  const tx = async <T>(fn: (q: Query) => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    const q: Query = {
      all: async <R extends Row>(sql: string, params: readonly Param[] = []) =>
        (await client.query(numbered(sql), [...params])).rows as R[],
      run: async (sql, params = []) => (await client.query(numbered(sql), [...params])).rowCount ?? 0,
    };
    let broken = false;
    try {
      await client.query('BEGIN');
      const out = await fn(q);
      await client.query('COMMIT');
      return out;
    } catch (e) {
      try {
        await client.query('ROLLBACK');
      } catch {
        broken = true;
      }
      throw e;
    } finally {
      client.release(broken);
    }
  };
  return {
    dialect: 'postgres',
    where,
    tx,
    async close() {
      await pool.end();
    },
  };
}
