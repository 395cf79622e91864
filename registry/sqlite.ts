/**
 * The embedded database: SQLite in one file through node-sqlite3-wasm (WebAssembly, no native build; why in
 * docs/dependencies.md). One connection, used by one unit of work at a time: SQLite has one writer anyway, and a
 * read between another unit's statements would see its uncommitted rows on the same connection.
 *
 * One process owns the file: it holds `<file>.flis.lock` (recorder/cassette-lock.ts: pid and start time, broken
 * when its process is gone), and SQLite's lock from its first transaction to its close (locking_mode EXCLUSIVE:
 * SQLite then keeps its page cache from one transaction to the next instead of checking the file each time, a read
 * 0.3 ms instead of 2.5). A rollback journal with synchronous FULL: a transaction is on disk when COMMIT returns. node-sqlite3-wasm locks the file with a directory `<file>.lock` that a process killed
 * in a transaction leaves behind, and SQLite would then find the database busy for ever; the owner of the file
 * removes it on opening, and SQLite rolls the interrupted transaction back from its journal.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { UsageError } from '../errors/flis-error.ts';
import { lockCassette } from '../recorder/cassette-lock.ts';
import { CassetteLockedError } from '../recorder/errors.ts';
import type { Database, Param, Query, Row } from './database.ts';

interface WasmDatabase {
  exec(sql: string): void;
  all(sql: string, values?: Param[]): Row[];
  run(sql: string, values?: Param[]): { changes: number };
  close(): void;
}

async function driver(): Promise<new (file: string) => WasmDatabase> {
  const mod = (await import('node-sqlite3-wasm')) as unknown as {
    default?: { Database: new (file: string) => WasmDatabase };
    Database?: new (file: string) => WasmDatabase;
  };
  const Db = mod.Database ?? mod.default?.Database;
  if (!Db) throw new Error('node-sqlite3-wasm exports no Database');
  return Db;
}

function ownFile(file: string): { release(): void } {
  try {
    return lockCassette(`${file}.flis`);
  } catch (e) {
    if (!(e instanceof CassetteLockedError)) throw e;
    const h = e.holder;
    throw new UsageError(
      h
        ? `${file} is open in another flis process (pid ${h.pid} on ${h.host}: ${h.command}); stop it, or give another --database`
        : `${file} is locked by ${file}.flis.lock, which names no process flis can check; remove it if no registry runs on ${file}`,
    );
  }
}

export async function openSqlite(spec: string): Promise<Database> {
  const file = resolve(spec);
  if (!existsSync(dirname(file))) mkdirSync(dirname(file), { recursive: true });
  const Db = await driver();
  const owner = ownFile(file);
  let db: WasmDatabase;
  try {
    // The driver's own lock, left by a process killed in a transaction (see above): this process owns the file now.
    if (existsSync(`${file}.lock`)) rmdirSync(`${file}.lock`);
    db = new Db(file);
    db.exec(
      'PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = TRUNCATE; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;',
    );
  } catch (e) {
    owner.release();
    throw new UsageError(`--database ${file}: ${(e as Error).message.split('\n')[0]}`);
  }
  let queue: Promise<unknown> = Promise.resolve();
  const q: Query = {
    all: async <R extends Row>(sql: string, params: readonly Param[] = []) => db.all(sql, [...params]) as R[],
    run: async (sql, params = []) => db.run(sql, [...params]).changes,
  };
  const tx = <T>(fn: (q: Query) => Promise<T>): Promise<T> => {
    const unit = queue.then(async () => {
      db.exec('BEGIN IMMEDIATE');
      try {
        const out = await fn(q);
        db.exec('COMMIT');
        return out;
      } catch (e) {
        db.exec('ROLLBACK');
        throw e;
      }
    });
    queue = unit.catch(() => undefined);
    return unit;
  };
  const backup = (): Promise<Buffer> => {
    const unit = queue.then(() => {
      const dir = mkdtempSync(join(tmpdir(), 'flis-registry-backup-'));
      try {
        const copy = join(dir, 'registry.db');
        db.run('VACUUM INTO ?', [copy]);
        return readFileSync(copy);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
    queue = unit.catch(() => undefined);
    return unit;
  };
  return {
    dialect: 'sqlite',
    where: file,
    tx,
    backup,
    async close() {
      await queue;
      db.close();
      owner.release();
    },
  };
}
