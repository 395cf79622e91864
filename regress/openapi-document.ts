/**
 * An OpenAPI document read for `flis contract diff`: YAML or JSON, validated
 * against the OpenAPI 3.0/3.1 schemas (@seriousme/openapi-schema-validator, on
 * the ajv the project already uses), and its operations as data with their
 * local $refs resolved. A document that is not valid is refused with the
 * validator's first error and its pointer.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { parse } from 'yaml';
import { UsageError } from '../errors/flis-error.ts';
import { readUserFile } from '../errors/user-file.ts';

// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document is walked dynamically; what leaves this file is typed.
export type Json = Record<string, any>;

export const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

export interface DocOperation {
  method: string;
  path: string;
  operationId: string;
  deprecated: boolean;
  parameters: Json[];
  requestSchema?: Json | undefined;
  requestRequired: boolean;
  /** The success codes as written ("2XX", "200", "201"). */
  successCodes: string[];
  responseSchema?: Json | undefined;
}

export interface OpenApiDocument {
  file: string;
  doc: Json;
  version: string;
  operations: DocOperation[];
  /** Resolves a local $ref ("#/components/schemas/Offer"); anything else is returned as it is. */
  deref(node: Json | undefined): Json | undefined;
}

/**
 * A document written as JSON, parsed as JSON: it means the same read as YAML, and a YAML parser takes a minute on
 * a 10 MB JSON document that JSON.parse reads in half a second. Undefined when it is not JSON (read as YAML then).
 */
function jsonFirst(text: string): unknown {
  if (!/^\s*\{/.test(text)) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The validator's verdict; anything it throws on is the document's fault, said in one line. */
async function validated(file: string, doc: object): Promise<{ valid: boolean; errors?: unknown }> {
  try {
    return await new Validator().validate(doc as Parameters<Validator['validate']>[0]);
  } catch (e) {
    throw new UsageError(`${file}: not a valid OpenAPI document: ${(e as Error).message.split('\n')[0]}`);
  }
}

function pointerGet(doc: Json, ref: string): Json | undefined {
  let v: unknown = doc;
  for (const raw of ref.replace(/^#/, '').split('/').slice(1)) {
    const seg = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    v = v && typeof v === 'object' ? (v as Json)[seg] : undefined;
  }
  return v && typeof v === 'object' ? (v as Json) : undefined;
}

/** The largest OpenAPI document read (the contract's own is under 1 MB); past it, one line says so. */
export const MAX_DOCUMENT_BYTES = 32 * 1024 * 1024;

export async function loadOpenApi(file: string): Promise<OpenApiDocument> {
  const text = readUserFile(file, 'the OpenAPI document', MAX_DOCUMENT_BYTES).toString('utf8');
  let doc: unknown;
  try {
    doc = jsonFirst(text) ?? parse(text, { prettyErrors: false });
  } catch (e) {
    const line = (e as { linePos?: { line: number }[] }).linePos?.[0]?.line;
    throw new UsageError(`${file}${line ? `:${line}` : ''}: not YAML or JSON: ${(e as Error).message.split('\n')[0]}`);
  }
  // The validator reads fields of what it is given: an empty file (null), a scalar or a list is no document.
  if (!doc || typeof doc !== 'object' || Array.isArray(doc))
    throw new UsageError(
      `${file}: not an OpenAPI document: ${text.trim() === '' ? 'the file is empty' : `its top level is ${Array.isArray(doc) ? 'a list' : 'not a mapping'}`}; expected a mapping with openapi, info and paths`,
    );
  const result = await validated(file, doc);
  if (!result.valid) {
    const first = [result.errors].flat()[0] as { instancePath?: string; message?: string } | string | undefined;
    const where = typeof first === 'object' ? first.instancePath || '(root)' : '(root)';
    const what = typeof first === 'object' ? (first.message ?? 'invalid') : String(first ?? 'invalid');
    throw new UsageError(`${file}: not a valid OpenAPI document: at ${where}: ${what}`);
  }
  const d = doc as Json;
  const deref = (node: Json | undefined): Json | undefined => {
    let n = node;
    for (let i = 0; i < 20 && n && typeof n.$ref === 'string' && n.$ref.startsWith('#'); i++) {
      const { $ref, ...rest } = n;
      const target = pointerGet(d, $ref as string);
      n = target ? { ...target, ...rest } : rest;
    }
    return n;
  };
  const operations: DocOperation[] = [];
  for (const [path, item] of Object.entries((d.paths ?? {}) as Json)) {
    const pathItem = deref(item as Json) ?? {};
    for (const method of METHODS) {
      const op = deref(pathItem[method] as Json | undefined);
      if (!op) continue;
      const params = [...((pathItem.parameters ?? []) as Json[]), ...((op.parameters ?? []) as Json[])].map(
        (p) => deref(p) ?? {},
      );
      const body = deref(op.requestBody as Json | undefined);
      const successCodes = Object.keys((op.responses ?? {}) as Json)
        .filter((c) => /^2/.test(c))
        .sort();
      const success = deref((op.responses as Json | undefined)?.[successCodes[0] ?? '']);
      const reqSchema = (body?.content as Json | undefined)?.['application/json']?.schema as Json | undefined;
      const resSchema = (success?.content as Json | undefined)?.['application/json']?.schema as Json | undefined;
      operations.push({
        method: method.toUpperCase(),
        path,
        operationId: typeof op.operationId === 'string' ? op.operationId : `${method.toUpperCase()} ${path}`,
        deprecated: op.deprecated === true,
        parameters: params,
        requestSchema: reqSchema,
        requestRequired: body?.required === true,
        successCodes,
        responseSchema: resSchema,
      });
    }
  }
  return { file, doc: d, version: String(d.info?.version ?? ''), operations, deref };
}
