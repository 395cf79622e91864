/**
 * The schema walk of the contract diff: two versions of a request or response schema compared node by node in the
 * direction they are used (a field removed from Offer breaks readers of offers, not writers). A shared schema
 * (#/components/schemas/NAME) is compared once per direction: a change inside it is reported once, at the schema,
 * with its pointer from the schema's root and every operation it reaches (through other schemas too). A recursive
 * schema is reached again, not walked again. regress/contract-diff.ts walks the operations and their parameters.
 */
import type { ContractChange } from './contract-change.ts';
import type { DocOperation, Json, OpenApiDocument } from './openapi-document.ts';
import {
  componentOf,
  type Direction,
  enumOf,
  flatSchema,
  MAX_DEPTH,
  requestEnumChange,
  responseEnumChange,
  show,
  typesOf,
} from './schema-nodes.ts';

/** The most schema nodes one diff compares; a real document has a few thousand. */
export const MAX_NODES = 200_000;

/** A shared schema compared in one direction: what the walk is inside of. */
interface Shared {
  key: string;
  name: string;
}

export class SchemaDiffer {
  readonly changes: ContractChange[] = [];
  protected op!: DocOperation;
  /** The shared schema being compared, if any: its changes are its own, not the operation's. */
  private inside: Shared | undefined;
  /** Schema nodes still to compare: YAML aliases can make a schema that nests for ever without a $ref. */
  protected budget = MAX_NODES;
  private readonly compared = new Set<string>();
  /** Per shared schema (by key): the operations that use it directly, and the shared schemas that hold it. */
  private readonly usedBy = new Map<string, { operations: Set<string>; schemas: Set<string> }>();
  private readonly changesIn = new Map<string, ContractChange[]>();

  constructor(
    protected readonly a: OpenApiDocument,
    protected readonly b: OpenApiDocument,
  ) {}

  protected add(c: Omit<ContractChange, 'operationId' | 'method' | 'path'>): void {
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

  protected schema(
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

  get usedByView(): ReadonlyMap<string, { operations: ReadonlySet<string>; schemas: ReadonlySet<string> }> {
    return this.usedBy;
  }

  /** Each shared schema's changes learn every operation the schema reaches. */
  protected operationsOfShared(): void {
    for (const [key, changes] of this.changesIn) {
      const operations = [...reachOf(key, this.usedBy)].sort();
      for (const c of changes) c.operations = operations;
    }
  }
}

/** Every operation a shared schema reaches, through the schemas that hold it too (a cycle of them included). */
function reachOf(
  key: string,
  usedBy: SchemaDiffer['usedByView'],
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
