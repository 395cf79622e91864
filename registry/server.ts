/**
 * `flis registry serve`: the certification registry over HTTP (Fastify, as the mock). Partners publish their
 * certificates and cassettes; the service team's CI reads the latest cassettes, records regress verdicts against
 * release candidates and asks whether a candidate may ship; everyone reads the matrix page.
 *
 * Who may do what: the admin token (FLIS_REGISTRY_ADMIN_TOKEN) reads everything and alone adds partners, records
 * verdicts and releases; a partner's token publishes and reads its own records only. No token, or one the registry
 * does not know, is 401; a token asking for what it may not have is 403; both before anything is read or written.
 * The API takes `Authorization: Bearer`; the pages also take the cookie the login form sets (HttpOnly,
 * SameSite=Strict), and only for GET, so a page of another site can never make a browser write here.
 *
 * Bad input is a 4xx with one line (`{"error": "…"}`) and nothing stored: a body over the limit (413), not JSON
 * (400), of another content type (415), a name that could climb out of a path (400).
 */
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { canIRelease } from './gate.ts';
import { migrate } from './migrations.ts';
import { checkName, NameError, type NameKind } from './names.ts';
import { loginPage, matrixPage } from './pages.ts';
import { checkIdempotencyKey, checkPublication } from './publication-check.ts';
import type { Database } from './database.ts';
import { type Partner, RegistryError, type ReplayInput, Store } from './store.ts';
import { mintPartnerToken, sameHash, tokenHash } from './tokens.ts';

export interface RegistryOptions {
  db: Database;
  adminToken: string;
  host?: string | undefined;
  port?: number | undefined;
  /** The largest request body, in bytes (default 32 MiB). */
  maxUploadBytes?: number | undefined;
  /** The largest cassette, in bytes of its text (default 16 MiB). */
  maxCassetteBytes?: number | undefined;
  /** Told of each publication and regress run stored (the serve command's log). */
  log?: ((line: string) => void) | undefined;
}

export interface RunningRegistry {
  url: string;
  store: Store;
  close(): Promise<void>;
}

type Who = { admin: true } | { admin: false; partner: Partner };

export const COOKIE = 'flis_registry_token';
const MiB = 1024 * 1024;
/** Pages load nothing, run nothing, and a stored report (written by a partner's tool) runs in a sandbox. */
const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
const REPORT_CSP = `${PAGE_CSP}; sandbox`;

function oneLine(s: string): string {
  return s.split('\n')[0]!.slice(0, 500);
}

function fail(status: number, message: string): never {
  throw new RegistryError(status, message);
}

function nameParam(kind: NameKind, value: unknown): string {
  try {
    return checkName(kind, value);
  } catch (e) {
    if (e instanceof NameError) fail(400, e.message);
    throw e;
  }
}

function idParam(value: unknown): number {
  const n = Number(value);
  if (typeof value !== 'string' || !/^[1-9][0-9]{0,15}$/.test(value) || !Number.isSafeInteger(n))
    fail(400, `an id is a positive whole number; got ${JSON.stringify(String(value).slice(0, 40))}`);
  return n;
}

function bearerOf(req: FastifyRequest): string | undefined {
  const h = req.headers.authorization;
  const m = typeof h === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(h) : null;
  return m?.[1];
}

function cookieOf(req: FastifyRequest): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === COOKIE) return decodeURIComponent(v.join('='));
  }
  return undefined;
}

/** Served over TLS, or behind a TLS proxy that says so: the cookie is then never sent over plain HTTP. */
function secure(req: FastifyRequest): boolean {
  return (
    req.protocol === 'https' ||
    String(req.headers['x-forwarded-proto'] ?? '')
      .split(',')[0]
      ?.trim() === 'https'
  );
}

function requireJson(req: FastifyRequest): void {
  const type = String(req.headers['content-type'] ?? '');
  if (!/^application\/json\s*(;|$)/i.test(type))
    fail(415, `send the body as application/json; got '${oneLine(type) || 'none'}'`);
}

export async function startRegistry(o: RegistryOptions): Promise<RunningRegistry> {
  if (!o.adminToken || o.adminToken.length < 16)
    throw new RegistryError(400, 'the admin token must be at least 16 characters');
  await migrate(o.db);
  const store = new Store(o.db);
  const adminHash = tokenHash(o.adminToken);
  const maxCassetteBytes = o.maxCassetteBytes ?? 16 * MiB;
  const app = Fastify({ logger: false, bodyLimit: o.maxUploadBytes ?? 32 * MiB, forceCloseConnections: true });

  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 4096 },
    (_r, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  app.setErrorHandler((err: Error & { statusCode?: number }, _req, reply) => {
    const status = err instanceof RegistryError ? err.status : (err.statusCode ?? 500);
    const message = status >= 500 ? 'the registry failed to answer; nothing was stored' : oneLine(err.message);
    if (status >= 500) o.log?.(`error: ${oneLine(err.stack ?? err.message)}`);
    if (status === 401) reply.header('www-authenticate', 'Bearer realm="flis registry"');
    reply
      .code(status)
      .type('application/json')
      .send(`${JSON.stringify({ error: message })}\n`);
  });
  app.setNotFoundHandler((req, reply) => {
    reply
      .code(404)
      .type('application/json')
      .send(`${JSON.stringify({ error: `no ${req.method} ${oneLine(req.url.split('?')[0] ?? '')} here` })}\n`);
  });

  async function who(token: string | undefined): Promise<Who | undefined> {
    if (!token) return undefined;
    const hash = tokenHash(token);
    if (sameHash(hash, adminHash)) return { admin: true };
    const partner = await store.partnerByHash(hash);
    return partner ? { admin: false, partner } : undefined;
  }

  /** The API's caller, by its bearer token only. */
  async function caller(req: FastifyRequest): Promise<Who> {
    const token = bearerOf(req);
    if (!token) fail(401, 'no token: send Authorization: Bearer <registry token>');
    const w = await who(token);
    if (!w) fail(401, 'the registry knows no such token');
    return w;
  }

  async function admin(req: FastifyRequest): Promise<void> {
    const w = await caller(req);
    if (!w.admin) fail(403, 'only the admin token may do this');
  }

  /** The owner of partner `name`'s records, or the admin. */
  function mayRead(w: Who, partner: string): void {
    if (!w.admin && w.partner.name !== partner) fail(403, "a partner's token reads its own records only");
  }

  function secretsOf(req: FastifyRequest): { label: string; value: string }[] {
    return [
      { label: 'FLIS_REGISTRY_ADMIN_TOKEN', value: o.adminToken },
      { label: 'FLIS_REGISTRY_TOKEN', value: bearerOf(req) ?? '' },
    ].filter((s) => s.value);
  }

  app.get('/healthz', async () => ({ ok: true }));

  // ---- partners (admin)
  app.post('/api/partners', async (req, reply) => {
    await admin(req);
    requireJson(req);
    const b = (req.body ?? {}) as { name?: unknown; deployments?: unknown };
    const name = nameParam('partner', b.name);
    const deployments = deploymentsOf(b.deployments);
    const token = mintPartnerToken();
    const p = await store.addPartner(name, tokenHash(token), deployments);
    o.log?.(`partner ${name} added`);
    reply.code(201);
    return { ...p, token };
  });
  app.get('/api/partners', async (req) => {
    await admin(req);
    return { partners: await store.partners() };
  });
  app.patch('/api/partners/:name', async (req) => {
    await admin(req);
    const name = nameParam('partner', (req.params as { name: string }).name);
    requireJson(req);
    const b = (req.body ?? {}) as { active?: unknown; deployments?: unknown };
    const change: { active?: boolean; deployments?: string[] } = {};
    if (b.active !== undefined) {
      if (typeof b.active !== 'boolean') fail(422, 'active must be true or false');
      change.active = b.active;
    }
    if (b.deployments !== undefined) change.deployments = deploymentsOf(b.deployments);
    return store.setPartner(name, change);
  });

  // ---- publications (a partner publishes its own; the admin reads all)
  app.post('/api/publications', async (req, reply) => {
    const w = await caller(req);
    if (w.admin) fail(403, "a publication is a partner's: publish with the partner's token");
    if (!w.partner.active) fail(403, `partner '${w.partner.name}' is inactive: the admin may activate it again`);
    requireJson(req);
    const key = checkIdempotencyKey(req.headers['idempotency-key']);
    const input = checkPublication(req.body, w.partner.name, key, { maxCassetteBytes }, secretsOf(req));
    const { id, created } = await store.publish(w.partner.name, input);
    if (created) o.log?.(`publication ${id} of ${w.partner.name}: ${input.verdict}`);
    reply.code(created ? 201 : 200);
    return { id, created, partner: w.partner.name, url: `/reports/certificates/${id}` };
  });
  app.get('/api/publications', async (req) => {
    const w = await caller(req);
    const asked = (req.query as { partner?: string }).partner;
    const partner = w.admin ? (asked === undefined ? undefined : nameParam('partner', asked)) : w.partner.name;
    if (!w.admin && asked !== undefined && asked !== w.partner.name) mayRead(w, asked);
    return { publications: await store.publications(partner) };
  });
  async function ownedPublication(req: FastifyRequest) {
    const w = await caller(req);
    const id = idParam((req.params as { id: string }).id);
    const p = await store.publicationSummary(id);
    if (!p) fail(404, `no publication ${id}`);
    mayRead(w, p.partner);
    return p;
  }
  app.get('/api/publications/:id', async (req) => ownedPublication(req));
  app.get('/api/publications/:id/certificate', async (req, reply) => {
    const p = await ownedPublication(req);
    reply.type('application/json');
    return `${await store.publicationPart(p.id, 'certificate_json')}\n`;
  });
  app.get('/api/publications/:id/cassette', async (req, reply) => {
    const p = await ownedPublication(req);
    const text = await store.publicationPart(p.id, 'cassette');
    if (!text) fail(404, `publication ${p.id} carries no cassette`);
    reply.type('application/yaml');
    return text;
  });
  app.get('/api/cassettes/latest', async (req) => {
    await admin(req);
    return { cassettes: await store.latestCassettes() };
  });

  // ---- releases (the service team's CI)
  app.post('/api/releases/:release/replays', async (req, reply) => {
    await admin(req);
    const release = nameParam('release', (req.params as { release: string }).release);
    requireJson(req);
    const key = checkIdempotencyKey(req.headers['idempotency-key']);
    const b = (req.body ?? {}) as Record<string, unknown>;
    const replays = Array.isArray(b.replays) ? b.replays.map(replayOf) : fail(422, 'replays must be a list');
    const text = (v: unknown, what: string) =>
      typeof v === 'string' && v && v.length <= 200 ? v : fail(422, `${what} must be a string of 1 to 200 characters`);
    const { id, created } = await store.recordReplays(release, {
      idempotencyKey: key,
      runId: text(b.runId, 'runId'),
      deployment: text(b.deployment, 'deployment'),
      toolVersion: text(b.toolVersion, 'toolVersion'),
      replays,
    });
    if (created) o.log?.(`regress run ${id} against ${release}: ${replays.length} partner(s)`);
    reply.code(created ? 201 : 200);
    return { id, created, release };
  });
  app.get('/api/releases/:release/replays', async (req) => {
    const w = await caller(req);
    const release = nameParam('release', (req.params as { release: string }).release);
    const all = await store.latestReplays(release);
    return { replays: w.admin ? all : all.filter((r) => r.partner === w.partner.name) };
  });
  app.post('/api/releases/:release/deployments', async (req, reply) => {
    await admin(req);
    const release = nameParam('release', (req.params as { release: string }).release);
    requireJson(req);
    const deployment = nameParam('deployment', ((req.body ?? {}) as { deployment?: unknown }).deployment);
    const { recordedAt } = await store.recordRelease(release, deployment);
    o.log?.(`release ${release} runs on ${deployment}`);
    reply.code(201);
    return { release, deployment, recordedAt: new Date(recordedAt).toISOString() };
  });
  app.get('/api/releases/:release/can-i-release', async (req) => {
    await admin(req);
    const release = nameParam('release', (req.params as { release: string }).release);
    const to = (req.query as { to?: string }).to;
    return canIRelease(store, release, to === undefined ? undefined : nameParam('deployment', to));
  });
  app.get('/api/backup', async (req, reply) => {
    await admin(req);
    if (!o.db.backup) fail(400, 'this registry runs on PostgreSQL: back it up with pg_dump (docs/registry.md)');
    const bytes = await o.db.backup();
    reply.type('application/vnd.sqlite3');
    return bytes;
  });

  // ---- pages: the API's token, or the login form's cookie (GET only)
  async function viewer(req: FastifyRequest, reply: FastifyReply): Promise<Who | undefined> {
    const w = await who(bearerOf(req) ?? cookieOf(req));
    if (!w) {
      reply
        .code(401)
        .header('content-security-policy', PAGE_CSP)
        .type('text/html; charset=utf-8')
        .send(loginPage(cookieOf(req) ? 'That token is no longer known: sign in again.' : undefined));
    }
    return w;
  }
  function html(reply: FastifyReply, text: string, csp = PAGE_CSP): FastifyReply {
    return reply
      .header('content-security-policy', csp)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(text);
  }
  app.get('/', async (_req, reply) => reply.redirect('/matrix', 303));
  app.get('/login', async (_req, reply) => html(reply, loginPage()));
  app.post('/login', async (req, reply) => {
    const type = String(req.headers['content-type'] ?? '');
    if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(type))
      fail(415, `send the form as application/x-www-form-urlencoded; got '${oneLine(type) || 'none'}'`);
    const token = String(((req.body ?? {}) as { token?: unknown }).token ?? '').trim();
    if (!(await who(token))) return html(reply.code(401), loginPage('The registry knows no such token.'));
    return reply
      .header(
        'set-cookie',
        `${COOKIE}=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/${secure(req) ? '; Secure' : ''}`,
      )
      .redirect('/matrix', 303);
  });
  app.post('/logout', async (_req, reply) =>
    reply.header('set-cookie', `${COOKIE}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0`).redirect('/login', 303),
  );
  app.get('/matrix', async (req, reply) => {
    const w = await viewer(req, reply);
    if (!w) return reply;
    const partners = w.admin ? await store.partners() : [w.partner];
    const names = new Set(partners.map((p) => p.name));
    const replays = (await store.latestReplays()).filter((r) => names.has(r.partner));
    const publications = w.admin ? await store.publications() : await store.publications(w.partner.name);
    return html(
      reply,
      matrixPage({
        viewer: w.admin ? { admin: true } : { admin: false, partner: w.partner.name },
        partners,
        releases: await store.releases(),
        replays,
        publications,
      }),
    );
  });
  app.get('/reports/certificates/:id', async (req, reply) => {
    const w = await viewer(req, reply);
    if (!w) return reply;
    const id = idParam((req.params as { id: string }).id);
    const p = await store.publicationSummary(id);
    if (!p) fail(404, `no publication ${id}`);
    mayRead(w, p.partner);
    return html(reply, (await store.publicationPart(id, 'certificate_html')) ?? '', REPORT_CSP);
  });
  app.get('/reports/replays/:id', async (req, reply) => {
    const w = await viewer(req, reply);
    if (!w) return reply;
    const id = idParam((req.params as { id: string }).id);
    const r = await store.replay(id);
    if (!r) fail(404, `no replay ${id}`);
    mayRead(w, r.partner);
    return html(reply, r.reportHtml, REPORT_CSP);
  });

  try {
    await app.listen({ host: o.host ?? '127.0.0.1', port: o.port ?? 0 });
  } catch (e) {
    await app.close();
    throw e;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : o.port;
  const host = o.host ?? '127.0.0.1';
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    store,
    async close() {
      await app.close();
    },
  };
}

function deploymentsOf(v: unknown): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) fail(422, 'deployments must be a list of deployment names');
  return [...new Set(v.map((d) => nameParam('deployment', d)))].sort();
}

const VERDICTS = ['unchanged', 'changed', 'broken'] as const;

function replayOf(v: unknown): ReplayInput {
  if (!v || typeof v !== 'object') fail(422, 'each replay must be a JSON object');
  const r = v as Record<string, unknown>;
  const verdict = r.verdict as ReplayInput['verdict'];
  if (!VERDICTS.includes(verdict)) fail(422, `a replay's verdict is one of ${VERDICTS.join(', ')}`);
  const publication = typeof r.publication === 'number' && Number.isSafeInteger(r.publication) ? r.publication : 0;
  if (publication < 1) fail(422, "a replay's publication is the id of the publication it replayed");
  for (const k of ['summary', 'reportHtml', 'reportJson'] as const)
    if (typeof r[k] !== 'string' || !r[k] || String(r[k]).includes('\u0000'))
      fail(422, `a replay's ${k} must be a string`);
  return {
    partner: nameParam('partner', r.partner),
    publication,
    verdict,
    summary: oneLine(String(r.summary)),
    reportHtml: String(r.reportHtml),
    reportJson: String(r.reportJson),
  };
}
