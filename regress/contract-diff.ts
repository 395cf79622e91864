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
 * Compared on the operations' schemas with local $refs resolved, so a change
 * to a shared component is named on each operation that uses it, in the
 * direction it is used (a field removed from Offer breaks readers of offers,
 * not writers).
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
}

const MAX_DEPTH = 16;

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

export class ContractDiffer {
  readonly changes: ContractChange[] = [];
  private op!: DocOperation;

  constructor(
    private readonly a: OpenApiDocument,
    private readonly b: OpenApiDocument,
  ) {}

  private add(c: Omit<ContractChange, 'operationId' | 'method' | 'path'>): void {
    this.changes.push({ operationId: this.op.operationId, method: this.op.method, path: this.op.path, ...c });
  }

  /** allOf branches merged: properties and required of every branch. */
  private flat(node: Json | undefined, doc: OpenApiDocument): Json | undefined {
    const n = doc.deref(node);
    if (!n || !Array.isArray(n.allOf)) return n;
    const parts = (n.allOf as Json[]).map((x) => this.flat(x, doc) ?? {});
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

  private schema(
    oldNode: Json | undefined,
    newNode: Json | undefined,
    dir: Direction,
    ptr: string,
    depth: number,
  ): void {
    if (depth > MAX_DEPTH) return;
    const o = this.flat(oldNode, this.a);
    const n = this.flat(newNode, this.b);
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
      for (const c of this.changes.slice(before)) {
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

export function diffContracts(a: OpenApiDocument, b: OpenApiDocument): ContractChange[] {
  return new ContractDiffer(a, b).run();
}
