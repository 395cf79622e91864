/**
 * The registry as its users' commands reach it: `flis certify --publish`, `flis regress --registry`,
 * `flis contract diff --registry`, `flis can-i-release` and `flis registry …`. The token comes from
 * FLIS_REGISTRY_TOKEN only (the admin's, or a partner's to publish) and is never printed. A request that failed on
 * the way (no answer, a 5xx, a 429) is sent again, twice at most, with the same Idempotency-Key, so a retried
 * write is stored once. A refusal is one line naming the registry, the status and the registry's reason.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { type Dispatcher, request } from 'undici';
import { UsageError } from '../errors/flis-error.ts';

export const TOKEN_ENV = 'FLIS_REGISTRY_TOKEN';

/** The registry's base URL, checked: http(s), no credentials, no query; without a trailing slash. */
export function registryUrl(raw: string, from = '--registry'): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new UsageError(`${from} must be the registry's URL (http://host:port); got '${raw}'`);
  }
  if (!/^https?:$/.test(u.protocol))
    throw new UsageError(`${from} must be an http:// or https:// URL; got '${u.protocol}'`);
  if (u.username || u.password)
    throw new UsageError(`${from} must not carry credentials: the token is read from ${TOKEN_ENV}`);
  if (u.search || u.hash) throw new UsageError(`${from} takes no query or fragment; got '${raw}'`);
  return `${u.origin}${u.pathname.replace(/\/+$/, '')}`;
}

export interface Answer {
  status: number;
  body: Buffer;
  json<T>(): T;
}

const ATTEMPTS = 3;

export class RegistryClient {
  constructor(
    readonly url: string,
    private readonly token: string | undefined,
    private readonly retryDelayMs = 500,
  ) {}

  static fromEnv(url: string, env: NodeJS.ProcessEnv, what: string): RegistryClient {
    const token = env[TOKEN_ENV]?.trim();
    if (!token) throw new UsageError(`${TOKEN_ENV} is not set: ${what} needs a registry token`);
    return new RegistryClient(url, token);
  }

  /** Sends a request; 2xx answers are returned, anything else becomes a UsageError of one line. */
  async call(
    method: Dispatcher.HttpMethod,
    path: string,
    o: { json?: unknown; idempotencyKey?: string; accept?: string } = {},
  ): Promise<Answer> {
    const headers: Record<string, string> = { accept: o.accept ?? 'application/json' };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    if (o.idempotencyKey) headers['idempotency-key'] = o.idempotencyKey;
    const body = o.json === undefined ? undefined : JSON.stringify(o.json);
    if (body !== undefined) headers['content-type'] = 'application/json';
    // Only a request that cannot do harm twice is sent again: a read, or a write under an idempotency key.
    const retriable = method === 'GET' || !!o.idempotencyKey;
    let last = '';
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      try {
        const r = await request(`${this.url}${path}`, {
          method,
          headers,
          body: body ?? null,
          headersTimeout: 120_000,
          bodyTimeout: 120_000,
        });
        const bytes = Buffer.from(await r.body.arrayBuffer());
        if (r.statusCode >= 200 && r.statusCode < 300)
          return { status: r.statusCode, body: bytes, json: <T>() => JSON.parse(bytes.toString('utf8')) as T };
        last = `${r.statusCode}: ${reasonOf(bytes)}`;
        if (!retriable || (r.statusCode < 500 && r.statusCode !== 429)) break;
      } catch (e) {
        last = `no answer (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`;
        if (!retriable) break;
      }
      if (attempt < ATTEMPTS) await sleep(this.retryDelayMs * attempt);
    }
    throw new UsageError(`the registry at ${this.url} refused ${method} ${path.split('?')[0]}: ${last}`);
  }
}

function reasonOf(bytes: Buffer): string {
  try {
    const j = JSON.parse(bytes.toString('utf8')) as { error?: unknown };
    if (typeof j.error === 'string') return j.error;
  } catch {
    // Not the registry's JSON: its first line says enough.
  }
  return bytes.toString('utf8').split('\n')[0]!.slice(0, 200) || '(no reason given)';
}
