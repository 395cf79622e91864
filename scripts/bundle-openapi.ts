/**
 * Publishes the contract as one self-contained OpenAPI document for other tools
 * (code generators, mock servers, property-based testers), which do not all
 * resolve file references the way specs/openapi.yaml and schemas/ use them.
 * `npm run bundle` rewrites specs/openapi.bundled.yaml; a test fails when it is stale.
 *
 * The sources stay the one truth (flis reads them); the bundle is derived:
 * every schema file becomes components/schemas/<PascalCase of its file name>
 * (the names of schemas/types.generated.ts) and every reference to a file
 * becomes `#/components/schemas/<Name>`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Document, parse } from 'yaml';
import { readSchemaFile, type SchemaName, schemaNames } from '../schemas/registry.ts';
import { OPENAPI_FILE, SPEC_DIR } from '../specs/contract.ts';

export const BUNDLED_FILE = join(SPEC_DIR, 'openapi.bundled.yaml');

const HEADER =
  ' Generated from specs/openapi.yaml and schemas/*.schema.json by scripts/bundle-openapi.ts (npm run bundle).\n' +
  ' Do not edit: change the sources and regenerate. One document, no external references.';

/** "offer-write-offer" → "OfferWriteOffer": the component name of a schema file. */
export function componentName(name: string): string {
  return name.replace(/(^|-)(\w)/g, (_, __, c: string) => c.toUpperCase());
}

const FILE_REF = /^(?:\.\.\/schemas\/)?([\w-]+)\.schema\.json$/;

function isSchemaName(name: string): name is SchemaName {
  return (schemaNames as readonly string[]).includes(name);
}

/** A deep copy with every file $ref made local; an unknown file is an error, never a dangling ref. */
function localizeRefs(node: unknown, where: string): unknown {
  if (Array.isArray(node)) return node.map((n) => localizeRefs(n, where));
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string' && !value.startsWith('#')) {
      const file = value.match(FILE_REF)?.[1];
      if (!file || !isSchemaName(file)) throw new Error(`${where}: $ref '${value}' is not a schema of schemas/`);
      out[key] = `#/components/schemas/${componentName(file)}`;
    } else out[key] = localizeRefs(value, where);
  }
  return out;
}

/**
 * A schema file as a component. `$schema` goes: inside an OpenAPI 3.1 document the
 * dialect is the document's (2020-12 based), and some tools treat an embedded
 * `$schema` as the start of a separate resource. The files carry no `$id`.
 */
function component(name: SchemaName): unknown {
  const { $schema: _dialect, $id: _id, ...schema } = readSchemaFile(name);
  return localizeRefs(schema, `schemas/${name}.schema.json`);
}

/** The bundled document as data. */
export function bundledDocument(): Record<string, unknown> {
  const source = parse(readFileSync(OPENAPI_FILE, 'utf8')) as Record<string, unknown>;
  const doc = localizeRefs(source, 'specs/openapi.yaml') as Record<string, unknown>;
  const schemas = Object.fromEntries(schemaNames.map((name) => [componentName(name), component(name)]));
  return { ...doc, components: { ...(doc.components as object), schemas } };
}

/** The bundled document as the text of specs/openapi.bundled.yaml. */
export function bundleOpenapi(): string {
  const doc = new Document(bundledDocument());
  doc.commentBefore = HEADER;
  return doc.toString({ lineWidth: 0 });
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  writeFileSync(BUNDLED_FILE, bundleOpenapi());
  console.log(`wrote ${BUNDLED_FILE}`);
}
