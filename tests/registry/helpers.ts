/**
 * The registry's test bench: a registry started in-process on either database (the embedded file, or a real
 * PostgreSQL server this file starts: tests/registry/postgres.ts), real cassettes recorded through the recorder in
 * front of the embedded mock, certificates shaped as `flis certify` writes them, and plain HTTP calls.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { recordPartner, partnerClients } from '../../bench/partner-clients.ts';
import { openDatabase } from '../../registry/database.ts';
import { type RunningRegistry, startRegistry } from '../../registry/server.ts';
import { startPostgres, type TestPostgres } from './postgres.ts';

export const ADMIN_TOKEN = 'admin-token-for-the-registry-tests-0123456789';
export const ENGINES = ['embedded', 'postgres'] as const;
export type Engine = (typeof ENGINES)[number];

export function tempDir(prefix = 'flis-registry-'): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

let pg: Promise<TestPostgres> | undefined;
let databases = 0;

/** This file's PostgreSQL server, started on first use and stopped when the process ends. */
export function testPostgres(): Promise<TestPostgres> {
  pg ??= startPostgres();
  return pg;
}

/** A database spec for `engine`: a new file in `dir`, or a new database on this file's PostgreSQL server. */
export async function databaseSpec(engine: Engine, dir: string): Promise<string> {
  databases += 1;
  if (engine === 'embedded') return join(dir, `registry-${databases}.db`);
  return (await testPostgres()).database(`registry_${process.pid}_${databases}`);
}

export interface TestRegistry extends RunningRegistry {
  spec: string;
  stop(): Promise<void>;
}

export async function registryOn(
  engine: Engine,
  dir: string,
  o: { maxUploadBytes?: number; maxCassetteBytes?: number; spec?: string } = {},
): Promise<TestRegistry> {
  const spec = o.spec ?? (await databaseSpec(engine, dir));
  const db = await openDatabase(spec);
  const r = await startRegistry({ db, adminToken: ADMIN_TOKEN, ...o });
  return {
    ...r,
    spec,
    async stop() {
      await r.close();
      await db.close();
    },
  };
}

export interface Reply {
  status: number;
  text: string;
  headers: Record<string, string | string[] | undefined>;
  json<T = Record<string, unknown>>(): T;
}

/** One HTTP call: `json` is sent as application/json, `body` as it is (with `type`). */
export async function call(
  url: string,
  method: string,
  path: string,
  o: { token?: string; json?: unknown; body?: string | Buffer; type?: string; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...o.headers };
  if (o.token) headers.authorization = `Bearer ${o.token}`;
  let body: string | Buffer | undefined = o.body;
  if (o.json !== undefined) {
    body = JSON.stringify(o.json);
    headers['content-type'] ??= 'application/json';
  }
  if (o.type) headers['content-type'] = o.type;
  const r = await request(url + path, { method: method as 'GET', headers, body: body ?? null });
  const text = await r.body.text();
  return { status: r.statusCode, text, headers: r.headers, json: <T>() => JSON.parse(text) as T };
}

export async function addPartner(url: string, name: string, deployments: string[] = []): Promise<string> {
  const r = await call(url, 'POST', '/api/partners', { token: ADMIN_TOKEN, json: { name, deployments } });
  if (r.status !== 201) throw new Error(`adding ${name}: ${r.status} ${r.text}`);
  return r.json<{ token: string }>().token;
}

export const CONTRACT_SHA = 'a'.repeat(64);

/** A certificate as `flis certify --partner NAME` writes it, cut to the fields the registry reads. */
export function certificate(partner: string, runId: string, verdict = 'certified', sha = CONTRACT_SHA) {
  return {
    kind: 'flis-conformance-certificate',
    format: 1,
    date: '2030-01-01T00:00:00.000Z',
    subject: { deployment: 'sandbox', baseUrl: 'https://sandbox.example/apis/v0', partner },
    spec: { version: '0.1', file: 'specs/openapi.yaml', sha256: sha },
    tool: { name: 'flis-conformance', version: '0.1.0' },
    run: { seed: 1, runId, suites: 'all', allowWrites: true },
    verdict: { status: verdict, scope: 'full' },
    parties: { client: { status: verdict }, service: { status: 'certified' } },
  };
}

export function publicationBody(partner: string, runId: string, cassette: string | null, verdict = 'certified') {
  const cert = certificate(partner, runId, verdict);
  return {
    certificate: cert,
    certificateHtml: `<!doctype html><html><head><meta charset="utf-8"><title>${partner}</title></head><body><h1>${partner}: ${verdict}</h1><p>run ${runId}</p></body></html>`,
    cassette,
    contract: { sha256: cert.spec.sha256 },
    tool: { version: cert.tool.version },
  };
}

/** Real partner traffic: one of bench/partner-clients.ts's clients recorded through the recorder, as text. */
export async function recordedCassette(
  dir: string,
  client: keyof typeof partnerClients = 'billing-reader',
  seed = 1,
): Promise<string> {
  const name = `${client}-${seed}`;
  await recordPartner(dir, name, (c) => partnerClients[client]!(c, seed));
  return readFileSync(join(dir, `${name}.yaml`), 'utf8');
}
