/**
 * Every change between two versions of the OpenAPI document, per operation,
 * classified for clients (oasdiff's model: a stable id per kind of change):
 *
 * - breaking: an operation removed; a response field removed, made optional or
 *   of another type; a response enum widened (or dropped) where the document
 *   pins one; a request field that became required (or a new required one); a
 *   request enum narrowed (or added); a request field's type narrowed; a
 *   parameter that became required, a new required one, a parameter moved to
 *   another location, or narrowed; the documented success status changed.
 * - compatible: an operation, an optional parameter, an optional request field
 *   or a response field added; a request enum widened; a response enum narrowed.
 * - informational: a request field or parameter no longer read, an operation
 *   deprecated, the document's version.
 *
 * Compared on the operations' schemas with local $refs resolved, in the
 * direction each is used (a field removed from Offer breaks readers of offers,
 * not writers). A shared schema (#/components/schemas/NAME) is compared once
 * per direction: a change inside it is reported once, at the schema, with its
 * pointer from the schema's root and every operation it reaches (through other
 * schemas too). A recursive schema is reached again, not walked again: one type
 * change in a tree of nodes is one change, not one per path down the tree.
 */
import type { DocOperation, Json, OpenApiDocument } from './openapi-document.ts';

export type ChangeClass = 'breaking' | 'compatible' | 'informational';

export interface ContractChange {
  id: string;
  class: ChangeClass;
  operationId: string;
  method: string;
  path: string;
  where: 'operation' | 'parameter' | 'request' | 'response' | 'document';
  /** JSON pointer into the request or response body (`*` for every array item), or the parameter's name. */
  pointer?: string;
  parameter?: { name: string; in: string };
  before?: string;
  after?: string;
  /** Enum values the new version still accepts (a narrowed request enum): a partner sending another one is hit. */
  allowed?: string[];
  message: string;
  /**
   * The shared schema the change is in (its name under #/components/schemas, of the old document): `pointer` is then
   * from the schema's root, `operationId`, `method` and `path` are empty, and `operations` lists every operation it
   * reaches, sorted.
   */
  component?: string;
  operations?: string[];
}

const SCHEMA_REF = /^#\/components\/schemas\/([^/]+)$/;

/** The shared schema a node refers to ("Offer" of #/components/schemas/Offer), or undefined. */
export function componentOf(node: Json | undefined): string | undefined {
  const ref = node?.$ref;
  const m = typeof ref === 'string' ? SCHEMA_REF.exec(ref) : null;
  return m ? decodeURIComponent(m[1]!).replaceAll('~1', '/').replaceAll('~0', '~') : undefined;
}

/** allOf branches merged into one schema: properties and required of every branch (at most MAX_DEPTH deep). */
export function flatSchema(node: Json | undefined, doc: OpenApiDocument, depth = 0): Json | undefined {
  const n = doc.deref(node);
  if (!n || !Array.isArray(n.allOf)) return n;
  const parts = depth < MAX_DEPTH ? (n.allOf as Json[]).map((x) => flatSchema(x, doc, depth + 1) ?? {}) : [];
  const merged: Json = {
    ...n,
    properties: { ...(n.properties ?? {}) },
    required: [...((n.required as string[]) ?? [])],
  };
  delete merged.allOf;
  for (const p of parts) {
    Object.assign(merged.properties, p.properties ?? {});
    merged.required.push(...((p.required as string[]) ?? []));
    for (const k of ['type', 'enum', 'items', 'nullable'])
      if (merged[k] === undefined && p[k] !== undefined) merged[k] = p[k];
  }
  return merged;
}

const MAX_DEPTH = 16;
/** The most schema nodes one diff compares; a real document has a few thousand. */
const MAX_NODES = 200_000;

type Direction = 'request' | 'response';

function typesOf(n: Json | undefined): string[] | undefined {
  if (!n) return undefined;
  const t = n.type;
  const list = Array.isArray(t) ? (t as string[]) : typeof t === 'string' ? [t] : undefined;
  if (!list) return undefined;
  const out = new Set(list.map((x) => (x === 'integer' ? 'number' : x)));
  if (n.nullable === true) out.add('null');
  return [...out].sort();
}

function enumOf(n: Json | undefined): unknown[] | undefined {
  if (!n) return undefined;
  if (Array.isArray(n.enum)) return n.enum as unknown[];
  if (n.const !== undefined) return [n.const];
  return undefined;
}

const show = (v: unknown[]): string => v.map((x) => JSON.stringify(x)).join(', ');

type EnumChange = Pick<ContractChange, 'id' | 'class' | 'message' | 'allowed'>;

/** A reader breaks on a value it has not seen: an enum widened, or dropped, where one was pinned. */
function responseEnumChange(
  eo: unknown[] | undefined,
  en: unknown[] | undefined,
  added: unknown[],
  removed: unknown[],
): EnumChange | undefined {
  if (!eo) return { id: 'response-enum-added', class: 'compatible', message: `now pinned to ${show(en ?? [])}` };
  if (!en || added.length)
    return { id: 'response-enum-widened', class: 'breaking', message: `may now be ${en ? show(added) : 'any value'}` };
  if (removed.length)
    return { id: 'response-enum-narrowed', class: 'compatible', message: `no longer ${show(removed)}` };
  return undefined;
}

/** A writer breaks on a value no longer accepted: an enum narrowed, or added where any value was. */
function requestEnumChange(
  eo: unknown[] | undefined,
  en: unknown[] | undefined,
  added: unknown[],
  removed: unknown[],
): EnumChange | undefined {
  if (!en) return { id: 'request-enum-removed', class: 'compatible', message: 'takes any value now' };
  if (!eo || removed.length)
    return {
      id: 'request-enum-narrowed',
      class: 'breaking',
      allowed: en.map((v) => String(v)),
      message: `accepts only ${show(en)}${eo ? ` (no longer ${show(removed)})` : ''}`,
    };
  if (added.length) return { id: 'request-enum-widened', class: 'compatible', message: `also accepts ${show(added)}` };
  return undefined;
}

/** A shared schema compared in one direction: what the walk is inside of. */
interface Shared {
  key: string;
  name: string;
}

export class ContractDiffer {
  readonly changes: ContractChange[] = [];
  private op!: DocOperation;
  /** The shared schema being compared, if any: its changes are its own, not the operation's. */
  private inside: Shared | undefined;
  /** Schema nodes still to compare: YAML aliases can make a schema that nests for ever without a $ref. */
  private budget = MAX_NODES;
  private readonly compared = new Set<string>();
  /** Per shared schema (by key): the operations that use it directly, and the shared schemas that hold it. */
  private readonly usedBy = new Map<string, { operations: Set<string>; schemas: Set<string> }>();
  private readonly changesIn = new Map<string, ContractChange[]>();

  constructor(
    private readonly a: OpenApiDocument,
    private readonly b: OpenApiDocument,
  ) {}

  private add(c: Omit<ContractChange, 'operationId' | 'method' | 'path'>): void {
    if (!this.inside) {
      this.changes.push({ operationId: this.op.operationId, method: this.op.method, path: this.op.path, ...c });
      return;
    }
    const change: ContractChange = { operationId: '', method: '', path: '', ...c, component: this.inside.name };
    this.changes.push(change);
    this.changesIn.get(this.inside.key)?.push(change);
  }

  /** Who reaches a shared schema from here: the walk's own shared schema, else the operation. */
  private reached(key: string): void {
    let by = this.usedBy.get(key);
    if (!by) this.usedBy.set(key, (by = { operations: new Set(), schemas: new Set() }));
    if (this.inside) by.schemas.add(this.inside.key);
    else by.operations.add(this.op.operationId);
  }

  private schema(
    oldNode: Json | undefined,
    newNode: Json | undefined,
    dir: Direction,
    ptr: string,
    depth: number,
  ): void {
    const name = componentOf(oldNode);
    if (name === undefined) {
      this.compare(oldNode, newNode, dir, ptr, depth);
      return;
    }
    const key = `${dir} ${oldNode!.$ref} ${newNode?.$ref ?? '(inline)'}`;
    this.reached(key);
    if (this.compared.has(key)) return;
    this.compared.add(key);
    this.changesIn.set(key, []);
    const outer = this.inside;
    this.inside = { key, name };
    this.compare(oldNode, newNode, dir, '', 0);
    this.inside = outer;
  }

  private compare(
    oldNode: Json | undefined,
    newNode: Json | undefined,
    dir: Direction,
    ptr: string,
    depth: number,
  ): void {
    if (depth > MAX_DEPTH || this.budget <= 0) return;
    this.budget -= 1;
    const o = flatSchema(oldNode, this.a);
    const n = flatSchema(newNode, this.b);
    if (!o || !n) return;
    this.types(o, n, dir, ptr);
    this.enums(o, n, dir, ptr);
    const op = (o.properties ?? {}) as Json;
    const np = (n.properties ?? {}) as Json;
    const oreq = new Set((o.required as string[]) ?? []);
    const nreq = new Set((n.required as string[]) ?? []);
    for (const key of new Set([...Object.keys(op), ...Object.keys(np)])) {
      const p = `${ptr}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
      if (!(key in np)) {
        if (dir === 'response')
          this.add({
            id: 'response-field-removed',
            class: 'breaking',
            where: dir,
            pointer: p,
            message: `response field ${p} removed`,
          });
        else
          this.add({
            id: 'request-field-removed',
            class: 'informational',
            where: dir,
            pointer: p,
            message: `request field ${p} is no longer described`,
          });
        continue;
      }
      if (!(key in op)) {
        if (dir === 'response')
          this.add({
            id: 'response-field-added',
            class: 'compatible',
            where: dir,
            pointer: p,
            message: `response field ${p} added`,
          });
        else if (nreq.has(key))
          this.add({
            id: 'request-field-added-required',
            class: 'breaking',
            where: dir,
            pointer: p,
            message: `request field ${p} added as required`,
          });
        else
          this.add({
            id: 'request-field-added',
            class: 'compatible',
            where: dir,
            pointer: p,
            message: `optional request field ${p} added`,
          });
        continue;
      }
      if (dir === 'request' && nreq.has(key) && !oreq.has(key))
        this.add({
          id: 'request-field-became-required',
          class: 'breaking',
          where: dir,
          pointer: p,
          message: `request field ${p} became required`,
        });
      if (dir === 'response' && oreq.has(key) && !nreq.has(key))
        this.add({
          id: 'response-field-became-optional',
          class: 'breaking',
          where: dir,
          pointer: p,
          message: `response field ${p} is no longer required`,
        });
      this.schema(op[key] as Json, np[key] as Json, dir, p, depth + 1);
    }
    if (o.items || n.items) this.schema(o.items as Json, n.items as Json, dir, `${ptr}/*`, depth + 1);
  }

  private types(o: Json, n: Json, dir: Direction, ptr: string): void {
    const [to, tn] = [typesOf(o), typesOf(n)];
    if (!to || !tn || to.join() === tn.join()) return;
    // A reader breaks on a type it did not expect; a writer on a type no longer accepted.
    const breaks = dir === 'response' ? tn.some((t) => !to.includes(t)) : to.some((t) => !tn.includes(t));
    this.add({
      id: `${dir}-field-type-changed`,
      class: breaks ? 'breaking' : 'compatible',
      where: dir,
      pointer: ptr,
      before: to.join('|'),
      after: tn.join('|'),
      message: `${dir} field ${ptr || '(body)'} type ${to.join('|')} -> ${tn.join('|')}`,
    });
  }

  private enums(o: Json, n: Json, dir: Direction, ptr: string): void {
    const [eo, en] = [enumOf(o), enumOf(n)];
    if (!eo && !en) return;
    const same = (x: unknown, y: unknown) => JSON.stringify(x) === JSON.stringify(y);
    const added = en ? en.filter((v) => !eo?.some((x) => same(x, v))) : [];
    const removed = eo ? eo.filter((v) => !en?.some((x) => same(x, v))) : [];
    const change =
      dir === 'response' ? responseEnumChange(eo, en, added, removed) : requestEnumChange(eo, en, added, removed);
    if (!change) return;
    this.add({
      where: dir,
      pointer: ptr,
      before: eo ? show(eo) : '(any)',
      after: en ? show(en) : '(any)',
      ...change,
      message: `${dir} field ${ptr} ${change.message}`,
    });
  }

  private parameters(o: DocOperation, n: DocOperation): void {
    const key = (p: Json) => String(p.name);
    const newByName = new Map(n.parameters.map((p) => [key(p), p]));
    const oldByName = new Map(o.parameters.map((p) => [key(p), p]));
    for (const p of o.parameters) {
      const name = key(p);
      const q = newByName.get(name);
      const parameter = { name, in: String(p.in) };
      if (!q) {
        this.add({
          id: 'parameter-removed',
          class: 'informational',
          where: 'parameter',
          pointer: name,
          parameter,
          message: `${p.in} parameter ${name} is no longer described`,
        });
        continue;
      }
      if (q.in !== p.in) {
        this.add({
          id: 'parameter-moved',
          class: 'breaking',
          where: 'parameter',
          pointer: name,
          parameter,
          before: String(p.in),
          after: String(q.in),
          message: `parameter ${name} moved from ${p.in} to ${q.in}`,
        });
        continue;
      }
      if (q.required === true && p.required !== true)
        this.add({
          id: 'parameter-became-required',
          class: 'breaking',
          where: 'parameter',
          pointer: name,
          parameter,
          message: `${p.in} parameter ${name} became required`,
        });
      const before = this.changes.length;
      this.schema(p.schema as Json, q.schema as Json, 'request', '', 0);
      // A change inside a shared schema stays the schema's, whoever reaches it.
      for (const c of this.changes.slice(before).filter((x) => x.component === undefined)) {
        c.where = 'parameter';
        c.parameter = parameter;
        c.id = c.id.replace(/^request-field-/, 'parameter-').replace(/^request-enum-/, 'parameter-enum-');
        c.message = c.message.replace(/^request field (\(body\))?/, `${p.in} parameter ${name}`);
        c.pointer = name;
      }
    }
    for (const q of n.parameters) {
      const name = key(q);
      if (oldByName.has(name)) continue;
      const parameter = { name, in: String(q.in) };
      if (q.required === true)
        this.add({
          id: 'parameter-added-required',
          class: 'breaking',
          where: 'parameter',
          pointer: name,
          parameter,
          message: `required ${q.in} parameter ${name} added`,
        });
      else
        this.add({
          id: 'parameter-added',
          class: 'compatible',
          where: 'parameter',
          pointer: name,
          parameter,
          message: `optional ${q.in} parameter ${name} added`,
        });
    }
  }

  private operation(o: DocOperation, n: DocOperation): void {
    this.op = o;
    if (!o.deprecated && n.deprecated)
      this.add({
        id: 'operation-deprecated',
        class: 'informational',
        where: 'operation',
        message: `${o.method} ${o.path} deprecated`,
      });
    if (o.successCodes.join() !== n.successCodes.join())
      this.add({
        id: 'success-status-changed',
        class: 'breaking',
        where: 'operation',
        before: o.successCodes.join(', '),
        after: n.successCodes.join(', '),
        message: `documented success status ${o.successCodes.join(', ') || '(none)'} -> ${n.successCodes.join(', ') || '(none)'}`,
      });
    this.parameters(o, n);
    if (!o.requestRequired && n.requestRequired)
      this.add({
        id: 'request-body-became-required',
        class: 'breaking',
        where: 'request',
        pointer: '',
        message: 'the request body became required',
      });
    this.schema(o.requestSchema, n.requestSchema, 'request', '', 0);
    this.schema(o.responseSchema, n.responseSchema, 'response', '', 0);
  }

  get usedByView(): ReadonlyMap<string, { operations: ReadonlySet<string>; schemas: ReadonlySet<string> }> {
    return this.usedBy;
  }

  /** Each shared schema's changes learn every operation the schema reaches. */
  private operationsOfShared(): void {
    for (const [key, changes] of this.changesIn) {
      const operations = [...reachOf(key, this.usedBy)].sort();
      for (const c of changes) c.operations = operations;
    }
  }

  run(): ContractChange[] {
    const key = (op: DocOperation) => `${op.method} ${op.path.replace(/\{[^}]+\}/g, '{}')}`;
    const newOps = new Map(this.b.operations.map((op) => [key(op), op]));
    const oldKeys = new Set(this.a.operations.map(key));
    for (const o of this.a.operations) {
      const n = newOps.get(key(o));
      this.op = o;
      if (!n)
        this.add({
          id: 'operation-removed',
          class: 'breaking',
          where: 'operation',
          message: `${o.method} ${o.path} removed`,
        });
      else this.operation(o, n);
    }
    for (const n of this.b.operations)
      if (!oldKeys.has(key(n))) {
        this.op = n;
        this.add({
          id: 'operation-added',
          class: 'compatible',
          where: 'operation',
          message: `${n.method} ${n.path} added`,
        });
      }
    this.operationsOfShared();
    if (this.budget <= 0)
      this.changes.push({
        id: 'comparison-stopped',
        class: 'informational',
        operationId: '',
        method: '',
        path: '',
        where: 'document',
        message: `the schemas were compared up to ${MAX_NODES} nodes; the rest nest deeper than flis compares`,
      });
    if (this.a.version !== this.b.version)
      this.changes.push({
        id: 'version-changed',
        class: 'informational',
        operationId: '',
        method: '',
        path: '',
        where: 'document',
        before: this.a.version,
        after: this.b.version,
        message: `info.version ${this.a.version} -> ${this.b.version}`,
      });
    return this.changes;
  }
}

/** Every operation a shared schema reaches, through the schemas that hold it too (a cycle of them included). */
function reachOf(
  key: string,
  usedBy: ContractDiffer['usedByView'],
  seen = new Set<string>(),
  out = new Set<string>(),
): Set<string> {
  if (seen.has(key)) return out;
  seen.add(key);
  const by = usedBy.get(key);
  for (const op of by?.operations ?? []) out.add(op);
  for (const holder of by?.schemas ?? []) reachOf(holder, usedBy, seen, out);
  return out;
}

export function diffContracts(a: OpenApiDocument, b: OpenApiDocument): ContractChange[] {
  return new ContractDiffer(a, b).run();
}
