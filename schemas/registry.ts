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

/**
 * ajv merges the errors of a schema behind a $ref into its caller's with
 * `vErrors = vErrors.concat(sub.errors)`, which copies every error gathered so
 * far: with allErrors, a list of N invalid items costs O(N²) (a 1 MB list of
 * invalid offers took minutes). Appending in place makes it linear. The
 * rewrite is checked: a generated validator that still concatenates is an error,
 * so an ajv upgrade that changes the emitted code fails loudly instead of
 * silently turning quadratic again.
 */
const CONCAT_MERGE = /vErrors = vErrors === null \? ([\w$.]+) : vErrors\.concat\(\1\);/g;

export function linearErrorMerge(code: string): string {
  const out = code.replace(
    CONCAT_MERGE,
    'if(vErrors === null){vErrors = $1;}else{for(const e of $1){vErrors.push(e);}}',
  );
  if (out.includes('vErrors.concat('))
    throw new Error('schemas/registry.ts: ajv emitted an error merge it cannot make linear');
  return out;
}

function addAll(allErrors = true): Ajv2020 {
  const ajv = new Ajv2020({
    strict: true,
    allErrors,
    allowUnionTypes: true,
    verbose: allErrors,
    code: { process: linearErrorMerge },
  });
  addFormats(ajv);
  for (const name of schemaNames) {
    const schema = { ...readSchemaFile(name), $id: `${BASE}${name}.schema.json` };
    if (allErrors) claim(schema, name);
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

/** Validators that stop at the first error: only whether a value is valid (validateInSlices, past its cap). */
let firstErrorRegistry: Ajv2020 | undefined;
const firstErrorCompiled = new Map<SchemaName, ValidateFunction>();

function firstErrorValidatorFor(name: SchemaName): ValidateFunction {
  let fn = firstErrorCompiled.get(name);
  if (fn) return fn;
  firstErrorRegistry ??= addAll(false);
  fn = firstErrorRegistry.getSchema(`${BASE}${name}.schema.json`);
  if (!fn) throw new Error(`schema ${name}.schema.json did not compile`);
  firstErrorCompiled.set(name, fn);
  return fn;
}

/** "offer.schema.json#/properties/quantity/type": the file that holds the rule, and the rule's pointer in it. */
function schemaPathOf(e: ErrorObject, root: SchemaName): string {
  const file = (e.parentSchema && ownerOf.get(e.parentSchema)) ?? root;
  const local = e.schemaPath.replace(BASE, '').replace(/^.*?(#|\.schema\.json)/, '');
  return `${file}.schema.json#${local}`;
}

function toViolation(e: ErrorObject, root: SchemaName, prefix = ''): SchemaViolation {
  const schemaPath = schemaPathOf(e, root);
  const allowed =
    e.keyword === 'enum' ? `: ${JSON.stringify((e.params as { allowedValues: unknown[] }).allowedValues)}` : '';
  return { pointer: `${prefix}${e.instancePath}`, schemaPath, message: `${e.message ?? e.keyword}${allowed}` };
}

export function validate(name: SchemaName, data: unknown): ValidationResult {
  const fn = validatorFor(name);
  const valid = fn(data) as boolean;
  return { valid, violations: valid ? [] : (fn.errors ?? []).map((e) => toViolation(e, name)) };
}

/** A verdict that lists at most a given number of violations and counts all of them. */
export interface CappedValidationResult extends ValidationResult {
  /** The violations found, listed or not (`violations.length` is at most the cap). */
  total: number;
  /**
   * False when `total` is a lower bound: once the cap is full, each further item of a list is only asked whether it
   * is valid, and an invalid one counts once however many rules it breaks.
   */
  exact: boolean;
}

/**
 * Validates like validate(), but turns only the first `max` errors into
 * violations. An invalid body can hold millions of errors (an empty object in
 * a list of offers breaks ~40 rules), and gathering and formatting them costs
 * far more than validating. A list schema (an array whose items are one $ref)
 * is judged item by item: until the cap is full, with every error of an item;
 * after it, each item is only asked whether it is valid (ajv stops at its first
 * error) and an invalid one counts once, so the count of the rest is a lower
 * bound and costs no more than validating a valid list.
 */
export function validateCapped(name: SchemaName, data: unknown, max: number): CappedValidationResult {
  return runToEnd(validateInSlices(name, data, max));
}

/** Items of a list judged between two pauses of validateInSlices. */
export const ITEMS_PER_SLICE = 256;

/**
 * validateCapped as steps: it pauses (yields) after every ITEMS_PER_SLICE items of a list, so a caller with an
 * event loop to keep can let other work run between slices. Driven to the end with runToEnd.
 */
export function* validateInSlices(
  name: SchemaName,
  data: unknown,
  max: number,
): Generator<void, CappedValidationResult, void> {
  const item = listItemSchema(name);
  const out: SchemaViolation[] = [];
  let total = 0;
  let exact = true;
  const items = item ? itemsOf(data) : undefined;
  if (item && items) {
    const fn = validatorFor(item);
    let firstError: ValidateFunction | undefined;
    let i = 0;
    for (const value of items) {
      if (i > 0 && i % ITEMS_PER_SLICE === 0) yield;
      if (out.length < max) total += collect(fn, value, item, `/${i}`, max, out);
      else {
        firstError ??= firstErrorValidatorFor(item);
        if (!firstError(value)) {
          total += 1;
          exact = false;
        }
      }
      i += 1;
    }
  } else total = collect(validatorFor(name), isItemStream(data) ? data.whole() : data, name, '', max, out);
  return { valid: total === 0, violations: out, total, exact };
}

/**
 * A JSON list too large to hold parsed (a body of a large cassette document): its items are parsed one at a time as
 * they are read. A list schema judges it item by item, as it judges an array; any other schema needs the value whole.
 */
export interface ItemStream {
  /** A symbol, not a name: no parsed JSON value can pass for a stream. */
  readonly [ITEM_STREAM]: true;
  items(): Iterable<unknown>;
  whole(): unknown;
}

export const ITEM_STREAM: unique symbol = Symbol('a JSON list read item by item');

export function isItemStream(data: unknown): data is ItemStream {
  return typeof data === 'object' && data !== null && ITEM_STREAM in data;
}

function itemsOf(data: unknown): Iterable<unknown> | undefined {
  return Array.isArray(data) ? data : isItemStream(data) ? data.items() : undefined;
}

/** Runs steps without pausing and returns their result. */
export function runToEnd<T>(steps: Generator<void, T, void>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** Runs one validator; appends its first errors to `into` up to `max` in all; returns how many errors it found. */
function collect(
  fn: ValidateFunction,
  data: unknown,
  root: SchemaName,
  prefix: string,
  max: number,
  into: SchemaViolation[],
): number {
  if (fn(data)) return 0;
  const errors = fn.errors ?? [];
  for (let i = 0; i < errors.length && into.length < max; i++) into.push(toViolation(errors[i]!, root, prefix));
  return errors.length;
}

const ANNOTATIONS = new Set(['$schema', 'title', 'description', 'type', 'items']);
const listItems = new Map<SchemaName, SchemaName | null>();

/**
 * The item schema of a list schema: `{"type": "array", "items": {"$ref": "X.schema.json"}}` with nothing but
 * annotations beside, whose only errors are "not an array" and its items' own. Anything else is judged whole.
 */
export function listItemSchema(name: SchemaName): SchemaName | undefined {
  let item = listItems.get(name);
  if (item === undefined) {
    const s = readSchemaFile(name);
    const items = s.items as Record<string, unknown> | undefined;
    const ref = items && Object.keys(items).length === 1 ? items.$ref : undefined;
    const target = typeof ref === 'string' ? /^([a-z-]+)\.schema\.json$/.exec(ref)?.[1] : undefined;
    const plain = s.type === 'array' && Object.keys(s).every((k) => ANNOTATIONS.has(k));
    item = plain && target && (schemaNames as readonly string[]).includes(target) ? (target as SchemaName) : null;
    listItems.set(name, item);
  }
  return item ?? undefined;
}
