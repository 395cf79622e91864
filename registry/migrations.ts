/**
 * The registry's schema, as migrations applied in order, each once, each in its own transaction (the same list for
 * both engines: {id} and {bigint} are rendered per engine by registry/database.ts TYPES). A migration is never
 * edited once released: a change is a new one at the end.
 */
import { type Database, TYPES } from './database.ts';

export const MIGRATIONS: readonly { version: number; name: string; statements: string[] }[] = [
  {
    version: 1,
    name: 'partners, publications, releases and replays',
    statements: [
      `CREATE TABLE partners (
        name TEXT PRIMARY KEY,
        token_hash TEXT NOT NULL UNIQUE,
        active INTEGER NOT NULL DEFAULT 1,
        deployments TEXT NOT NULL DEFAULT '',
        created_at {bigint} NOT NULL
      )`,
      `CREATE TABLE publications (
        id {id},
        partner TEXT NOT NULL REFERENCES partners(name),
        idempotency_key TEXT NOT NULL,
        created_at {bigint} NOT NULL,
        contract_sha256 TEXT NOT NULL,
        spec_version TEXT NOT NULL,
        tool_version TEXT NOT NULL,
        deployment TEXT NOT NULL,
        run_id TEXT NOT NULL,
        verdict TEXT NOT NULL,
        client_verdict TEXT,
        service_verdict TEXT,
        certificate_json TEXT NOT NULL,
        certificate_html TEXT NOT NULL,
        cassette TEXT,
        cassette_sha256 TEXT,
        exchanges INTEGER,
        violations INTEGER,
        UNIQUE (partner, idempotency_key)
      )`,
      'CREATE INDEX publications_by_partner ON publications (partner, id)',
      `CREATE TABLE releases (
        name TEXT PRIMARY KEY,
        created_at {bigint} NOT NULL
      )`,
      `CREATE TABLE regress_runs (
        id {id},
        release TEXT NOT NULL REFERENCES releases(name),
        idempotency_key TEXT NOT NULL UNIQUE,
        run_id TEXT NOT NULL,
        deployment TEXT NOT NULL,
        tool_version TEXT NOT NULL,
        created_at {bigint} NOT NULL
      )`,
      `CREATE TABLE replays (
        id {id},
        run {bigint} NOT NULL REFERENCES regress_runs(id),
        release TEXT NOT NULL REFERENCES releases(name),
        partner TEXT NOT NULL REFERENCES partners(name),
        publication {bigint} NOT NULL REFERENCES publications(id),
        verdict TEXT NOT NULL,
        summary TEXT NOT NULL,
        report_html TEXT NOT NULL,
        report_json TEXT NOT NULL,
        created_at {bigint} NOT NULL
      )`,
      'CREATE INDEX replays_by_release ON replays (release, partner, id)',
      `CREATE TABLE release_deployments (
        id {id},
        release TEXT NOT NULL REFERENCES releases(name),
        deployment TEXT NOT NULL,
        recorded_at {bigint} NOT NULL
      )`,
    ],
  },
];

function render(sql: string, db: Database): string {
  return sql.replace(/\{(\w+)\}/g, (_, word: string) => TYPES[db.dialect][word] ?? `{${word}}`);
}

/** Applies the migrations the database lacks; returns the versions applied. */
export async function migrate(db: Database): Promise<number[]> {
  await db.tx((q) =>
    q.run(`CREATE TABLE IF NOT EXISTS flis_registry_migrations (
      version INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      applied_at ${TYPES[db.dialect].bigint} NOT NULL
    )`),
  );
  const applied: number[] = [];
  for (const m of MIGRATIONS) {
    const done = await db.tx(async (q) => {
      // Two servers starting on one PostgreSQL database: the first applies, the second waits and finds it done.
      if (db.dialect === 'postgres') await q.all('SELECT pg_advisory_xact_lock(4242033)');
      const rows = await q.all('SELECT version FROM flis_registry_migrations WHERE version = ?', [m.version]);
      if (rows.length) return false;
      for (const s of m.statements) await q.run(render(s, db));
      await q.run('INSERT INTO flis_registry_migrations (version, name, applied_at) VALUES (?, ?, ?)', [
        m.version,
        m.name,
        Date.now(),
      ]);
      return true;
    });
    if (done) applied.push(m.version);
  }
  return applied;
}
