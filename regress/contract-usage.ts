/**
 * What each partner's recorded traffic uses of a contract, for `flis contract
 * diff --cassettes`: per operation of the OLD document, the requests sent,
 * the request fields and query parameters they carried (with the values of
 * strings, for narrowed enums), and the response fields received, each with
 * the first cassette line that shows it. Read exchange by exchange; what is
 * kept grows with the shapes used, not with the number of exchanges.
 */
import { jsonValue } from '../recorder/body.ts';
import type { LocatedExchange } from '../recorder/cassette-format.ts';
import { fileParts, parseExchange, parseRequestHead, walkCassette } from '../recorder/cassette-reader.ts';
import type { ContractChange } from './contract-diff.ts';
import type { DocOperation } from './openapi-document.ts';
import type { PartnerCassette } from './replay-partner.ts';

const MAX_VALUES = 20;
const MAX_SAMPLES = 20;

interface Seen {
  count: number;
  line: number;
  values?: Map<string, number>;
}

export interface OperationUsage {
  line: number;
  requests: number;
  /** Requests that carried a JSON body. */
  bodies: number;
  request: Map<string, Seen>;
  response: Map<string, number>;
  params: Map<string, Seen>;
  /** The first requests, with what each carried: to name one that lacks a field. */
  samples: { line: number; pointers: Set<string>; params: Set<string> }[];
}

export interface PartnerUsage {
  partner: string;
  file: string;
  exchanges: number;
  operations: Map<string, OperationUsage>;
}

/** The JSON pointers of a value (`*` for array items), each with its string value when it is one. */
function pointersOf(v: unknown, at: string, out: Map<string, string | undefined>): void {
  out.set(at, typeof v === 'string' ? v : undefined);
  if (Array.isArray(v)) for (const x of v) pointersOf(x, `${at}/*`, out);
  else if (v && typeof v === 'object')
    for (const [k, x] of Object.entries(v))
      pointersOf(x, `${at}/${k.replaceAll('~', '~0').replaceAll('/', '~1')}`, out);
}

function note(m: Map<string, Seen>, key: string, line: number, value: string | undefined): void {
  let s = m.get(key);
  if (!s) {
    s = { count: 0, line };
    m.set(key, s);
  }
  s.count += 1;
  if (value !== undefined) {
    s.values ??= new Map();
    if (!s.values.has(value) && s.values.size < MAX_VALUES) s.values.set(value, line);
  }
}

/** Matches recorded paths to the operations of one document. */
export class OperationMatcher {
  private readonly compiled: { method: string; re: RegExp; op: DocOperation }[];

  constructor(ops: DocOperation[]) {
    // Literal segments before templates (/offers/bulk before /offers/{offerId}), as OpenAPI resolves them.
    this.compiled = ops
      .map((op) => ({
        method: op.method,
        re: new RegExp(
          `^${op.path
            .split('/')
            .map((s) => (/^\{[^}]+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
            .join('/')}/?$`,
        ),
        op,
        literal: (op.path.match(/\{/g) ?? []).length,
      }))
      .sort((a, b) => a.literal - b.literal);
  }

  match(method: string, path: string): DocOperation | undefined {
    return this.compiled.find((c) => c.method === method.toUpperCase() && c.re.test(path))?.op;
  }
}

function record(u: PartnerUsage, e: LocatedExchange, op: DocOperation): void {
  let o = u.operations.get(op.operationId);
  if (!o) {
    o = {
      line: e.line,
      requests: 0,
      bodies: 0,
      request: new Map(),
      response: new Map(),
      params: new Map(),
      samples: [],
    };
    u.operations.set(op.operationId, o);
  }
  o.requests += 1;
  const sent = new Map<string, string | undefined>();
  const req = jsonValue(e.request.body);
  if (req.ok) {
    o.bodies += 1;
    pointersOf(req.value, '', sent);
  }
  for (const [ptr, value] of sent) note(o.request, ptr, e.line, value);
  const params = new Set<string>();
  for (const [k, v] of Object.entries(e.request.query)) {
    params.add(k);
    for (const x of [v].flat()) note(o.params, k, e.line, x);
  }
  if (o.samples.length < MAX_SAMPLES) o.samples.push({ line: e.line, pointers: new Set(sent.keys()), params });
  const res = jsonValue(e.response.body);
  if (res.ok && e.response.status >= 200 && e.response.status < 300) {
    const got = new Map<string, string | undefined>();
    pointersOf(res.value, '', got);
    for (const ptr of got.keys()) if (!o.response.has(ptr)) o.response.set(ptr, e.line);
  }
}

/**
 * What one partner's cassette uses. With `only` (the operations a breaking change is about), an exchange of any
 * other operation is read no further than its request line: most of a cassette is never parsed whole.
 */
export function partnerUsage(p: PartnerCassette, matcher: OperationMatcher, only?: ReadonlySet<string>): PartnerUsage {
  const u: PartnerUsage = { partner: p.partner, file: p.file, exchanges: 0, operations: new Map() };
  walkCassette(p.file, fileParts(p.file), { allowTorn: true }, (doc) => {
    u.exchanges += 1;
    const head = parseRequestHead(p.file, doc);
    const op = matcher.match(head.request.method, head.request.path);
    if (op && (!only || only.has(op.operationId))) record(u, parseExchange(p.file, doc), op);
  });
  return u;
}

/** Where a partner's traffic meets a breaking change: the exchange (file:line) and what it shows. */
export interface Touch {
  partner: string;
  file: string;
  line: number;
  shows: string;
}

const parentOf = (ptr: string): string => ptr.slice(0, ptr.lastIndexOf('/'));

/** The first sampled request that carried `parent` but not `ptr` (a field it would now have to send). */
function lacking(o: OperationUsage, has: (s: OperationUsage['samples'][number]) => boolean): number | undefined {
  return o.samples.find((s) => !has(s))?.line;
}

export function touches(c: ContractChange, u: PartnerUsage): Touch | undefined {
  const o = u.operations.get(c.operationId);
  if (!o) return undefined;
  const at = (line: number, shows: string): Touch => ({ partner: u.partner, file: u.file, line, shows });
  const ptr = c.pointer ?? '';
  switch (c.where) {
    case 'operation':
    case 'document':
      return at(o.line, `calls ${c.method} ${c.path}`);
    case 'response': {
      for (const [p, line] of o.response) if (p === ptr || p.startsWith(`${ptr}/`)) return at(line, `receives ${ptr}`);
      return undefined;
    }
    case 'request': {
      if (
        c.id === 'request-field-became-required' ||
        c.id === 'request-field-added-required' ||
        c.id === 'request-body-became-required'
      ) {
        const parent = parentOf(ptr);
        const line = lacking(o, (s) => s.pointers.has(ptr) || (ptr !== '' && !s.pointers.has(parent)));
        return line === undefined ? undefined : at(line, `sends ${parent || 'a body'} without ${ptr || 'a body'}`);
      }
      const seen = o.request.get(ptr);
      if (!seen) return undefined;
      if (c.allowed) {
        const bad = [...(seen.values ?? [])].find(([v]) => !c.allowed!.includes(v));
        return bad ? at(bad[1], `sends ${ptr} = ${JSON.stringify(bad[0])}`) : undefined;
      }
      return at(seen.line, `sends ${ptr}`);
    }
    case 'parameter': {
      const name = c.parameter?.name ?? ptr;
      if (c.id === 'parameter-became-required' || c.id === 'parameter-added-required') {
        const line = lacking(o, (s) => s.params.has(name));
        return line === undefined ? undefined : at(line, `calls without ${name}`);
      }
      const seen = o.params.get(name);
      if (!seen) return undefined;
      if (c.allowed) {
        const bad = [...(seen.values ?? [])].find(([v]) => !c.allowed!.includes(v));
        return bad ? at(bad[1], `sends ${name}=${bad[0]}`) : undefined;
      }
      return at(seen.line, `sends ${name}`);
    }
  }
}
