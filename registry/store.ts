/**
 * What the registry keeps and answers, over either engine (registry/database.ts): partners and their token hashes,
 * publications (a certificate with its cassette, contract version and tool version), release candidates, the
 * verdicts of regress runs against them, and which release runs on which deployment. Every write is one
 * transaction: a publication or a regress run is stored whole or not at all, and a retry with the same
 * idempotency key gets the first one back instead of a second copy.
 */
import type { Database, Param, Query, Row } from './database.ts';

/** A refusal the HTTP layer answers with its status and one line. */
export class RegistryError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface Partner {
  name: string;
  active: boolean;
  deployments: string[];
  createdAt: number;
}

export interface PublicationInput {
  idempotencyKey: string;
  contractSha256: string;
  specVersion: string;
  toolVersion: string;
  deployment: string;
  runId: string;
  verdict: string;
  clientVerdict: string | null;
  serviceVerdict: string | null;
  certificateJson: string;
  certificateHtml: string;
  cassette: string | null;
  cassetteSha256: string | null;
  exchanges: number | null;
  violations: number | null;
}

export interface PublicationSummary {
  id: number;
  partner: string;
  createdAt: number;
  contractSha256: string;
  specVersion: string;
  toolVersion: string;
  deployment: string;
  runId: string;
  verdict: string;
  clientVerdict: string | null;
  serviceVerdict: string | null;
  hasCassette: boolean;
  cassetteSha256: string | null;
  exchanges: number | null;
  violations: number | null;
}

export interface ReplayInput {
  partner: string;
  publication: number;
  verdict: 'unchanged' | 'changed' | 'broken';
  summary: string;
  reportHtml: string;
  reportJson: string;
}

export interface RegressRunInput {
  idempotencyKey: string;
  runId: string;
  deployment: string;
  toolVersion: string;
  replays: ReplayInput[];
}

export interface ReplaySummary {
  id: number;
  release: string;
  partner: string;
  publication: number;
  verdict: string;
  summary: string;
  runId: string;
  createdAt: number;
}

const SUMMARY_FIELDS = [
  'id',
  'partner',
  'created_at',
  'contract_sha256',
  'spec_version',
  'tool_version',
  'deployment',
  'run_id',
  'verdict',
  'client_verdict',
  'service_verdict',
  'cassette_sha256',
  'exchanges',
  'violations',
];

/** A publication's summary columns (never its documents), of table alias `t` when given. */
function summaryColumns(t = ''): string {
  const p = t ? `${t}.` : '';
  return `${SUMMARY_FIELDS.map((f) => p + f).join(', ')}, (${p}cassette IS NOT NULL) AS has_cassette`;
}

const SUMMARY_COLUMNS = summaryColumns();

function summaryOf(r: Row): PublicationSummary {
  return {
    id: Number(r.id),
    partner: String(r.partner),
    createdAt: Number(r.created_at),
    contractSha256: String(r.contract_sha256),
    specVersion: String(r.spec_version),
    toolVersion: String(r.tool_version),
    deployment: String(r.deployment),
    runId: String(r.run_id),
    verdict: String(r.verdict),
    clientVerdict: (r.client_verdict as string | null) ?? null,
    serviceVerdict: (r.service_verdict as string | null) ?? null,
    hasCassette: r.has_cassette === true || Number(r.has_cassette) === 1,
    cassetteSha256: (r.cassette_sha256 as string | null) ?? null,
    exchanges: r.exchanges === null || r.exchanges === undefined ? null : Number(r.exchanges),
    violations: r.violations === null || r.violations === undefined ? null : Number(r.violations),
  };
}

function partnerOf(r: Row): Partner {
  return {
    name: String(r.name),
    active: Number(r.active) === 1,
    deployments: String(r.deployments ?? '')
      .split(',')
      .filter(Boolean),
    createdAt: Number(r.created_at),
  };
}

function replayOf(r: Row): ReplaySummary {
  return {
    id: Number(r.id),
    release: String(r.release),
    partner: String(r.partner),
    publication: Number(r.publication),
    verdict: String(r.verdict),
    summary: String(r.summary),
    runId: String(r.run_id),
    createdAt: Number(r.created_at),
  };
}

async function one(q: Query, sql: string, params: readonly Param[]): Promise<Row | undefined> {
  return (await q.all(sql, params))[0];
}

export class Store {
  constructor(readonly db: Database) {}

  async addPartner(name: string, hash: string, deployments: string[]): Promise<Partner> {
    return this.db.tx(async (q) => {
      const now = Date.now();
      const changed = await q.run(
        'INSERT INTO partners (name, token_hash, active, deployments, created_at) VALUES (?, ?, 1, ?, ?) ON CONFLICT (name) DO NOTHING',
        [name, hash, deployments.join(','), now],
      );
      if (!changed) throw new RegistryError(409, `partner '${name}' exists already`);
      return { name, active: true, deployments, createdAt: now };
    });
  }

  async partnerByHash(hash: string): Promise<Partner | undefined> {
    const r = await this.db.tx((q) => one(q, 'SELECT * FROM partners WHERE token_hash = ?', [hash]));
    return r ? partnerOf(r) : undefined;
  }

  async partner(name: string): Promise<Partner | undefined> {
    const r = await this.db.tx((q) => one(q, 'SELECT * FROM partners WHERE name = ?', [name]));
    return r ? partnerOf(r) : undefined;
  }

  async partners(): Promise<Partner[]> {
    return (await this.db.tx((q) => q.all('SELECT * FROM partners ORDER BY name'))).map(partnerOf);
  }

  async setPartner(name: string, change: { active?: boolean; deployments?: string[] }): Promise<Partner> {
    return this.db.tx(async (q) => {
      const r = await one(q, 'SELECT * FROM partners WHERE name = ?', [name]);
      if (!r) throw new RegistryError(404, `no partner '${name}'`);
      const p = partnerOf(r);
      const next = { ...p, ...change };
      await q.run('UPDATE partners SET active = ?, deployments = ? WHERE name = ?', [
        next.active ? 1 : 0,
        next.deployments.join(','),
        name,
      ]);
      return next;
    });
  }

  /** Stores a publication, or returns the one stored before under the same idempotency key. */
  async publish(partner: string, p: PublicationInput): Promise<{ id: number; created: boolean }> {
    return this.db.tx(async (q) => {
      const inserted = await q.all(
        `INSERT INTO publications (partner, idempotency_key, created_at, contract_sha256, spec_version, tool_version,
           deployment, run_id, verdict, client_verdict, service_verdict, certificate_json, certificate_html, cassette,
           cassette_sha256, exchanges, violations)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (partner, idempotency_key) DO NOTHING RETURNING id`,
        [
          partner,
          p.idempotencyKey,
          Date.now(),
          p.contractSha256,
          p.specVersion,
          p.toolVersion,
          p.deployment,
          p.runId,
          p.verdict,
          p.clientVerdict,
          p.serviceVerdict,
          p.certificateJson,
          p.certificateHtml,
          p.cassette,
          p.cassetteSha256,
          p.exchanges,
          p.violations,
        ],
      );
      if (inserted[0]) return { id: Number(inserted[0].id), created: true };
      const before = await one(
        q,
        'SELECT id, run_id, cassette_sha256 FROM publications WHERE partner = ? AND idempotency_key = ?',
        [partner, p.idempotencyKey],
      );
      if (!before) throw new RegistryError(409, 'the publication under this Idempotency-Key could not be read back');
      if (before.run_id !== p.runId || (before.cassette_sha256 ?? null) !== p.cassetteSha256)
        throw new RegistryError(
          409,
          `Idempotency-Key ${p.idempotencyKey} was used for another publication (${before.id}); a new upload takes a new key`,
        );
      return { id: Number(before.id), created: false };
    });
  }

  async publications(partner?: string): Promise<PublicationSummary[]> {
    const rows = await this.db.tx((q) =>
      partner
        ? q.all(`SELECT ${SUMMARY_COLUMNS} FROM publications WHERE partner = ? ORDER BY id`, [partner])
        : q.all(`SELECT ${SUMMARY_COLUMNS} FROM publications ORDER BY id`),
    );
    return rows.map(summaryOf);
  }

  async publicationSummary(id: number): Promise<PublicationSummary | undefined> {
    const r = await this.db.tx((q) => one(q, `SELECT ${SUMMARY_COLUMNS} FROM publications WHERE id = ?`, [id]));
    return r ? summaryOf(r) : undefined;
  }

  /** One stored document of a publication: its certificate (JSON or HTML) or its cassette. */
  async publicationPart(
    id: number,
    part: 'certificate_json' | 'certificate_html' | 'cassette',
  ): Promise<string | null | undefined> {
    const r = await this.db.tx((q) => one(q, `SELECT ${part} AS doc FROM publications WHERE id = ?`, [id]));
    return r ? ((r.doc as string | null) ?? null) : undefined;
  }

  /** Each active partner's latest publication that carries a cassette, by partner name. */
  async latestCassettes(): Promise<PublicationSummary[]> {
    const rows = await this.db.tx((q) =>
      q.all(
        `SELECT ${summaryColumns('p')} FROM publications p
         JOIN partners a ON a.name = p.partner AND a.active = 1
         WHERE p.id = (SELECT MAX(x.id) FROM publications x WHERE x.partner = p.partner AND x.cassette IS NOT NULL)
         ORDER BY p.partner`,
      ),
    );
    return rows.map(summaryOf);
  }

  /** Stores a regress run's verdicts against `release`, or returns the run stored before under the same key. */
  async recordReplays(release: string, run: RegressRunInput): Promise<{ id: number; created: boolean }> {
    return this.db.tx(async (q) => {
      const now = Date.now();
      await q.run('INSERT INTO releases (name, created_at) VALUES (?, ?) ON CONFLICT (name) DO NOTHING', [
        release,
        now,
      ]);
      const inserted = await q.all(
        `INSERT INTO regress_runs (release, idempotency_key, run_id, deployment, tool_version, created_at)
         VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (idempotency_key) DO NOTHING RETURNING id`,
        [release, run.idempotencyKey, run.runId, run.deployment, run.toolVersion, now],
      );
      if (!inserted[0]) {
        const before = await one(q, 'SELECT id, release FROM regress_runs WHERE idempotency_key = ?', [
          run.idempotencyKey,
        ]);
        if (!before || before.release !== release)
          throw new RegistryError(409, `Idempotency-Key ${run.idempotencyKey} was used for another release`);
        return { id: Number(before.id), created: false };
      }
      const id = Number(inserted[0].id);
      for (const r of run.replays) {
        const pub = await one(q, 'SELECT partner FROM publications WHERE id = ?', [r.publication]);
        if (!pub || pub.partner !== r.partner)
          throw new RegistryError(422, `publication ${r.publication} is no publication of partner '${r.partner}'`);
        await q.run(
          `INSERT INTO replays (run, release, partner, publication, verdict, summary, report_html, report_json, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          [id, release, r.partner, r.publication, r.verdict, r.summary, r.reportHtml, r.reportJson, now],
        );
      }
      return { id, created: true };
    });
  }

  /** The latest replay of each partner against `release` (all releases when none is named). */
  async latestReplays(release?: string): Promise<ReplaySummary[]> {
    const rows = await this.db.tx((q) =>
      q.all(
        `SELECT r.id, r.release, r.partner, r.publication, r.verdict, r.summary, r.created_at, g.run_id
         FROM replays r JOIN regress_runs g ON g.id = r.run
         WHERE r.id = (SELECT MAX(x.id) FROM replays x WHERE x.release = r.release AND x.partner = r.partner)
         ${release ? 'AND r.release = ?' : ''}
         ORDER BY r.release, r.partner`,
        release ? [release] : [],
      ),
    );
    return rows.map(replayOf);
  }

  async replay(id: number): Promise<(ReplaySummary & { reportHtml: string; reportJson: string }) | undefined> {
    const r = await this.db.tx((q) =>
      one(q, `SELECT r.*, g.run_id FROM replays r JOIN regress_runs g ON g.id = r.run WHERE r.id = ?`, [id]),
    );
    return r ? { ...replayOf(r), reportHtml: String(r.report_html), reportJson: String(r.report_json) } : undefined;
  }

  async recordRelease(release: string, deployment: string): Promise<{ recordedAt: number }> {
    return this.db.tx(async (q) => {
      const now = Date.now();
      await q.run('INSERT INTO releases (name, created_at) VALUES (?, ?) ON CONFLICT (name) DO NOTHING', [
        release,
        now,
      ]);
      await q.run('INSERT INTO release_deployments (release, deployment, recorded_at) VALUES (?, ?, ?)', [
        release,
        deployment,
        now,
      ]);
      return { recordedAt: now };
    });
  }

  /** Release candidates, newest first, each with the deployments it runs on now (its latest record there). */
  async releases(): Promise<{ name: string; createdAt: number; runsOn: string[] }[]> {
    return this.db.tx(async (q) => {
      const rows = await q.all('SELECT name, created_at FROM releases ORDER BY created_at DESC, name');
      const current = await q.all(
        `SELECT d.deployment, d.release FROM release_deployments d
         WHERE d.id = (SELECT MAX(x.id) FROM release_deployments x WHERE x.deployment = d.deployment)`,
      );
      return rows.map((r) => ({
        name: String(r.name),
        createdAt: Number(r.created_at),
        runsOn: current
          .filter((c) => c.release === r.name)
          .map((c) => String(c.deployment))
          .sort(),
      }));
    });
  }

  async runningOn(deployment: string): Promise<{ release: string; recordedAt: number } | undefined> {
    const r = await this.db.tx((q) =>
      one(q, 'SELECT release, recorded_at FROM release_deployments WHERE deployment = ? ORDER BY id DESC LIMIT 1', [
        deployment,
      ]),
    );
    return r ? { release: String(r.release), recordedAt: Number(r.recorded_at) } : undefined;
  }

  /** Row counts of every table: what the refusal tests compare before and after. */
  async counts(): Promise<Record<string, number>> {
    return this.db.tx(async (q) => {
      const out: Record<string, number> = {};
      for (const t of ['partners', 'publications', 'releases', 'regress_runs', 'replays', 'release_deployments'])
        out[t] = Number((await q.all(`SELECT COUNT(*) AS n FROM ${t}`))[0]?.n ?? 0);
      return out;
    });
  }
}
