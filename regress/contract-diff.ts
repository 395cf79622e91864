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
 * direction each is used (regress/schema-diff.ts walks the schemas); here, the
 * operations, their parameters and the document.
 */
import type { ContractChange } from './contract-change.ts';
import type { DocOperation, Json, OpenApiDocument } from './openapi-document.ts';
import { MAX_NODES, SchemaDiffer } from './schema-diff.ts';

export class ContractDiffer extends SchemaDiffer {
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

export function diffContracts(a: OpenApiDocument, b: OpenApiDocument): ContractChange[] {
  return new ContractDiffer(a, b).run();
}
