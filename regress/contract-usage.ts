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
import { type ContractChange, componentOf, flatSchema } from './contract-diff.ts';
import type { DocOperation, Json, OpenApiDocument } from './openapi-document.ts';
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

/** Where a pointer of an operation's body lies in a shared schema: the schema's name and the pointer from its root. */
export interface InShared {
  component: string;
  pointer: string;
}

/**
 * Places the JSON pointers a partner's traffic showed in the old document's shared schemas, so a change reported once
 * at a schema (contract-diff.ts) is matched to the traffic of every operation that reaches it, at any depth of a
 * recursive schema. Remembered per operation, direction and pointer.
 */
export class SharedSchemaLocator {
  private readonly byId: Map<string, DocOperation>;
  private readonly known = new Map<string, InShared[]>();

  constructor(private readonly doc: OpenApiDocument) {
    this.byId = new Map(doc.operations.map((op) => [op.operationId, op]));
  }

  /** Each shared schema `pointer` passes through in the operation's request or response body, outermost first. */
  at(operationId: string, direction: 'request' | 'response', pointer: string): InShared[] {
    const key = `${operationId} ${direction} ${pointer}`;
    let found = this.known.get(key);
    if (!found) {
      const op = this.byId.get(operationId);
      found = this.walk(direction === 'request' ? op?.requestSchema : op?.responseSchema, pointer);
      this.known.set(key, found);
    }
    return found;
  }

  private walk(root: Json | undefined, pointer: string): InShared[] {
    const segments = pointer === '' ? [] : pointer.slice(1).split('/');
    const entered: { component: string; at: number }[] = [];
    const enter = (node: Json | undefined, at: number): void => {
      const component = componentOf(node);
      if (component !== undefined) entered.push({ component, at });
    };
    let node = root;
    enter(node, 0);
    for (let i = 0; i < segments.length && node; i++) {
      const flat = flatSchema(node, this.doc);
      const name = segments[i]!.replaceAll('~1', '/').replaceAll('~0', '~');
      node = (name === '*' ? flat?.items : flat?.properties?.[name]) as Json | undefined;
      enter(node, i + 1);
    }
    return entered.map(({ component, at }) => ({
      component,
      pointer: at < segments.length ? `/${segments.slice(at).join('/')}` : '',
    }));
  }
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

const REQUIRED_NOW = new Set(['request-field-became-required', 'request-field-added-required']);

/** A change inside a shared schema, met by the traffic of any operation that reaches it, where the schema sits. */
function sharedTouch(c: ContractChange, u: PartnerUsage, locator: SharedSchemaLocator): Touch | undefined {
  const ptr = c.pointer ?? '';
  const at = (line: number, shows: string): Touch => ({ partner: u.partner, file: u.file, line, shows });
  for (const opId of c.operations ?? []) {
    const o = u.operations.get(opId);
    if (!o) continue;
    const dir = c.where === 'response' ? 'response' : 'request';
    /** Where observed pointer q lies in the changed schema (one pointer per time the schema holds it). */
    const inSchema = (q: string): string[] =>
      locator
        .at(opId, dir, q)
        .filter((x) => x.component === c.component)
        .map((x) => x.pointer);
    if (c.where === 'response') {
      for (const [q, line] of o.response)
        if (inSchema(q).some((r) => r === ptr || r.startsWith(`${ptr}/`))) return at(line, `receives ${q}`);
      continue;
    }
    if (REQUIRED_NOW.has(c.id)) {
      const parent = parentOf(ptr);
      const leaf = ptr.slice(parent.length);
      for (const s of o.samples)
        for (const q of s.pointers)
          if (inSchema(q).includes(parent) && !s.pointers.has(`${q}${leaf}`))
            return at(s.line, `sends ${q || 'a body'} without ${q}${leaf}`);
      continue;
    }
    for (const [q, seen] of o.request) {
      if (!inSchema(q).includes(ptr)) continue;
      if (!c.allowed) return at(seen.line, `sends ${q}`);
      const bad = [...(seen.values ?? [])].find(([v]) => !c.allowed!.includes(v));
      if (bad) return at(bad[1], `sends ${q} = ${JSON.stringify(bad[0])}`);
    }
  }
  return undefined;
}

export function touches(c: ContractChange, u: PartnerUsage, locator?: SharedSchemaLocator): Touch | undefined {
  if (c.component !== undefined) return locator ? sharedTouch(c, u, locator) : undefined;
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
