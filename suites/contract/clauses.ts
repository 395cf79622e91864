/**
 * Which spec clauses a check enforces, read from the contract rather than
 * restated: an operation names its clause (x-flis-clause) and each schema's
 * description names the section 2 clause of its shape.
 */
import { readSchemaFile, type SchemaName } from '../../schemas/registry.ts';
import type { Operation } from '../../specs/contract.ts';
import { type ClauseOf, clausesOf } from '../lib/index.ts';

/** "spec 2.x" of a shape; for an array schema, the clause of its items ("array of Offer" is shaped by 2.2). */
export function shapeClause(schema: SchemaName): string | undefined {
  const doc = readSchemaFile(schema) as { description?: string; items?: { $ref?: string } };
  const own = doc.description?.match(/^spec (2\.\d+)/)?.[0];
  if (own) return own;
  const item = doc.items?.$ref?.match(/^([\w-]+)\.schema\.json$/)?.[1];
  return item ? shapeClause(item as SchemaName) : undefined;
}

/** The operation's clause (4.1 or 4.2) plus the shape clause of its response. */
export function responseClauses(op: Operation): ClauseOf<'response-schema'>[] {
  const shape = op.responseSchema ? shapeClause(op.responseSchema) : undefined;
  return clausesOf('response-schema', shape ? [op.clause, shape] : [op.clause]);
}

/** The operation's clause plus the shape clause of its request body (2.3 for offer writes). */
export function requestClause(op: Operation): string {
  const shape = op.requestSchema ? shapeClause(op.requestSchema) : undefined;
  return shape && shape !== op.clause ? `${op.clause}, ${shape}` : op.clause;
}
