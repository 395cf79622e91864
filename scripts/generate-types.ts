/**
 * Derives the TypeScript types of the documented shapes from the JSON Schemas,
 * so the shapes are written once. `npm run types` rewrites
 * schemas/types.generated.ts; a test fails when it is stale.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compile } from 'json-schema-to-typescript';
import { readSchemaFile, SCHEMA_DIR, schemaNames } from '../schemas/registry.ts';
import { componentName } from './bundle-openapi.ts';

export const TYPES_FILE = join(SCHEMA_DIR, 'types.generated.ts');

// One naming rule for the generated types and the bundled OpenAPI document's components.
const typeName = componentName;

const SHAPING_KEYWORDS = ['type', 'enum', 'const', '$ref', 'items', 'properties', 'allOf', 'anyOf', 'oneOf', 'tsType'];

/**
 * A copy of a schema for type generation only: a $ref to another file becomes
 * that file's type by name (all types live in one file), and a schema that
 * constrains nothing (a type the spec does not show) becomes `unknown`.
 */
function forTypes(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(forTypes);
  if (!node || typeof node !== 'object') return node;
  const obj = node as Record<string, unknown>;
  const ref = typeof obj.$ref === 'string' ? obj.$ref.match(/^([\w-]+)\.schema\.json$/) : null;
  if (ref?.[1]) return { tsType: typeName(ref[1]) };
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (k === 'properties' && v && typeof v === 'object') {
      out[k] = Object.fromEntries(
        Object.entries(v).map(([pk, pv]) => [
          pk,
          constrainsNothing(pv) ? { ...(pv as object), tsType: 'unknown' } : forTypes(pv),
        ]),
      );
    } else out[k] = forTypes(v);
  }
  return out;
}

function constrainsNothing(schema: unknown): boolean {
  return !!schema && typeof schema === 'object' && !SHAPING_KEYWORDS.some((k) => k in (schema as object));
}

export async function generateTypes(): Promise<string> {
  const parts = [
    '/* Generated from schemas/*.schema.json by scripts/generate-types.ts (npm run types). Do not edit. */',
  ];
  for (const name of schemaNames) {
    const schema = { ...(forTypes(readSchemaFile(name)) as object), title: typeName(name) };
    const ts = await compile(schema as never, typeName(name), {
      bannerComment: '',
      cwd: SCHEMA_DIR,
      declareExternallyReferenced: false,
      additionalProperties: true,
      format: true,
      style: { singleQuote: true, printWidth: 120 },
    });
    parts.push(ts.trim());
  }
  return `${parts.join('\n\n')}\n`;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  writeFileSync(TYPES_FILE, await generateTypes());
  console.log(`wrote ${TYPES_FILE}`);
}
