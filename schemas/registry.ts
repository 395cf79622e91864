/**
 * The one place JSON Schemas are loaded and compiled. The schema files in this
 * folder are the single source of truth: the OpenAPI document $refs them, the
 * mock validates write bodies with them, the suites validate responses with them.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS; its default export arrives wrapped under ESM + NodeNext.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

export const SCHEMA_DIR = dirname(fileURLToPath(import.meta.url));
/** In-memory base URI: the files carry no $id so editors and the OpenAPI linter resolve refs by path. */
const BASE = 'https://flis-conformance.invalid/schemas/';

export const schemaNames = [
  'location',
  'offer',
  'offer-list',
  'offer-write',
  'offer-write-offer',
  'mapping-requests',
  'mapping-carrier',
  'mapping-product',
  'mapping-location',
  'mapping-location-group',
  'offer-bulk-item',
  'offer-bulk',
  'billing-group',
  'billing-group-list',
  'billing-group-details',
  'invoiced-by',
  'invoice-list-item',
  'invoice-list',
  'invoice',
  'invoice-snapshot',
  'batch-ack',
  'batch-ack-create',
  'bulk-ack',
  'success-ack',
  'billing-group-status-update-item',
  'billing-group-status-update',
  'billing-group-status',
  'webhook-envelope',
] as const;
export type SchemaName = (typeof schemaNames)[number];

/** One schema error, located by JSON pointers into the value and into the schema. */
export interface SchemaViolation {
  /** JSON pointer to the bad value ("" is the root). */
  pointer: string;
  /** The file and the rule's JSON pointer in it, e.g. "offer.schema.json#/properties/quantity/type". */
  schemaPath: string;
  message: string;
}

export interface ValidationResult {
  valid: boolean;
  violations: SchemaViolation[];
}

export function readSchemaFile(name: SchemaName): Record<string, unknown> {
  const file = join(SCHEMA_DIR, `${name}.schema.json`);
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
}

/** Every *.schema.json file on disk, so a test can prove schemaNames lists them all. */
export function schemaFilesOnDisk(): string[] {
  return readdirSync(SCHEMA_DIR)
    .filter((f) => f.endsWith('.schema.json'))
    .sort();
}

/** Every schema added (cheap); each compiled on its first use, since a worker often needs a few of 36. */
let registry: Ajv2020 | undefined;
const compiled = new Map<SchemaName, ValidateFunction>();

/**
 * Which file each schema node came from. ajv reports a rule's path relative to
 * the schema it was inlined into, which names the wrong file for a rule behind
 * a $ref; with `verbose`, the error carries the node itself, and this map names its file.
 */
const ownerOf = new WeakMap<object, SchemaName>();

function claim(node: unknown, name: SchemaName): void {
  if (!node || typeof node !== 'object' || ownerOf.has(node)) return;
  ownerOf.set(node, name);
  for (const child of Object.values(node)) claim(child, name);
}

function addAll(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true, verbose: true });
  addFormats(ajv);
  for (const name of schemaNames) {
    const schema = { ...readSchemaFile(name), $id: `${BASE}${name}.schema.json` };
    claim(schema, name);
    ajv.addSchema(schema);
  }
  return ajv;
}

/** The compiled validator of one schema, compiled (with what it refers to) on first use. */
export function validatorFor(name: SchemaName): ValidateFunction {
  let fn = compiled.get(name);
  if (fn) return fn;
  if (!(schemaNames as readonly string[]).includes(name))
    throw new Error(`unknown schema '${name}'; known: ${schemaNames.join(', ')}`);
  registry ??= addAll();
  fn = registry.getSchema(`${BASE}${name}.schema.json`);
  if (!fn) throw new Error(`schema ${name}.schema.json did not compile`);
  compiled.set(name, fn);
  return fn;
}

/** "offer.schema.json#/properties/quantity/type": the file that holds the rule, and the rule's pointer in it. */
function schemaPathOf(e: ErrorObject, root: SchemaName): string {
  const file = (e.parentSchema && ownerOf.get(e.parentSchema)) ?? root;
  const local = e.schemaPath.replace(BASE, '').replace(/^.*?(#|\.schema\.json)/, '');
  return `${file}.schema.json#${local}`;
}

function toViolation(e: ErrorObject, root: SchemaName): SchemaViolation {
  const schemaPath = schemaPathOf(e, root);
  const allowed =
    e.keyword === 'enum' ? `: ${JSON.stringify((e.params as { allowedValues: unknown[] }).allowedValues)}` : '';
  return { pointer: e.instancePath, schemaPath, message: `${e.message ?? e.keyword}${allowed}` };
}

export function validate(name: SchemaName, data: unknown): ValidationResult {
  const fn = validatorFor(name);
  const valid = fn(data) as boolean;
  return { valid, violations: valid ? [] : (fn.errors ?? []).map((e) => toViolation(e, name)) };
}
