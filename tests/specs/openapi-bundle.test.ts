/**
 * specs/openapi.bundled.yaml, the contract as one self-contained document, is
 * in step with its sources and works in the tools that consume OpenAPI:
 * swagger-parser validates it, Redocly lints it clean, openapi-typescript makes
 * named types that typecheck, and Prism mocks GET /offers with valid offers.
 * Every tool runs offline from node_modules; Prism listens on loopback only.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import openapiTS, { astToString } from 'openapi-typescript';
import { parse } from 'yaml';
import { schemaNames } from '../../schemas/registry.ts';
import { BUNDLED_FILE, bundleOpenapi, componentName } from '../../scripts/bundle-openapi.ts';
import { OPENAPI_FILE, openapiDocument, operations } from '../../specs/contract.ts';
import { waitForOutput } from '../child-output.ts';
import { redoclyLint } from './redocly.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const require = createRequire(import.meta.url);
// ajv-formats is CommonJS; its default export arrives wrapped under ESM + NodeNext.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

// biome-ignore lint/suspicious/noExplicitAny: the tests walk the parsed document by key; a wrong key fails the assertion.
type Json = Record<string, any>;
const bundled = (): Json => parse(readFileSync(BUNDLED_FILE, 'utf8')) as Json;

/** Every value of `key` anywhere in the tree. */
function valuesOf(node: unknown, key: string): unknown[] {
  if (Array.isArray(node)) return node.flatMap((n) => valuesOf(n, key));
  if (!node || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([k, v]) => [...(k === key ? [v] : []), ...valuesOf(v, key)]);
}

test('specs/openapi.bundled.yaml is up to date with specs/openapi.yaml and schemas/ (run `npm run bundle`)', () => {
  assert.equal(readFileSync(BUNDLED_FILE, 'utf8'), bundleOpenapi());
});

test('the bundle is self-contained: PascalCase components, local refs only, no $id or $schema', () => {
  const doc = bundled();
  const names = Object.keys(doc.components.schemas);
  assert.deepEqual(names, schemaNames.map(componentName));
  for (const name of names) assert.match(name, /^[A-Z][A-Za-z0-9]*$/);
  for (const name of ['Offer', 'OfferList', 'OfferWrite', 'BillingGroup', 'BillingGroupDetails', 'Invoice'])
    assert.ok(names.includes(name), name);
  assert.ok(names.includes('InvoiceListItem'));
  const refs = valuesOf(doc, '$ref') as string[];
  assert.ok(refs.length > 40);
  for (const ref of refs) {
    const target = ref.match(/^#\/components\/schemas\/(\w+)$/)?.[1];
    assert.ok(target && names.includes(target), `'${ref}' points into components/schemas`);
  }
  assert.deepEqual(valuesOf(doc, '$id'), []);
  assert.deepEqual(valuesOf(doc, '$schema'), []);
  // Same operations as the source, and the same response shape where the source names a schema file.
  assert.deepEqual(Object.keys(doc.paths), Object.keys(openapiDocument().paths));
  assert.equal(valuesOf(doc.paths, 'operationId').length, operations().length);
  const listOffers = doc.paths['/offers'].get.responses['2XX'].content['application/json'].schema;
  assert.deepEqual(listOffers, { $ref: '#/components/schemas/OfferList' });
});

test('swagger-parser validates the bundle (and the source it is made from)', async () => {
  const api = (await SwaggerParser.validate(BUNDLED_FILE)) as Json;
  assert.equal(api.openapi, '3.1.0');
  await SwaggerParser.validate(OPENAPI_FILE);
});

test('Redocly lints the bundle with zero errors and zero warnings', () => {
  const report = redoclyLint(BUNDLED_FILE);
  assert.equal(report.totals.errors, 0, JSON.stringify(report.problems.slice(0, 5)));
  assert.equal(report.totals.warnings, 0, JSON.stringify(report.problems.slice(0, 5)));
  assert.equal(report.status, 0);
});

const USE_TYPES = `import type { components, paths } from './flis-api';

type Offer = components['schemas']['Offer'];
type OfferList = paths['/offers']['get']['responses']['2XX']['content']['application/json'];
type Named = [
  components['schemas']['OfferWrite'],
  components['schemas']['BillingGroup'],
  components['schemas']['BillingGroupDetails'],
  components['schemas']['Invoice'],
  components['schemas']['InvoiceListItem'],
];

export function firstOfferId(list: OfferList): string | undefined {
  const first: Offer | undefined = list[0];
  return first?.id;
}
export function invoiceIds(named: Named): string[] {
  return [named[3].id, named[4].id];
}
// The types carry the schemas' shapes, not 'any': a quantity is a number, canceled a boolean.
// @ts-expect-error canceled is a boolean
export const notABoolean: Offer['canceled'] = 'yes';
`;

/** A consumer's strict project: only the generated file and the file that uses it, no ambient @types. */
const TSCONFIG = {
  compilerOptions: {
    strict: true,
    noEmit: true,
    target: 'es2022',
    module: 'esnext',
    moduleResolution: 'bundler',
    types: [],
    skipLibCheck: true,
  },
  files: ['use.ts'],
};

test('openapi-typescript generates named types from the bundle that typecheck', async () => {
  const ts = astToString(await openapiTS(pathToFileURL(BUNDLED_FILE)));
  assert.doesNotMatch(ts, /\.schema"/, 'no type is named after a file');
  const dir = mkdtempSync(join(tmpdir(), 'flis-openapi-ts-'));
  try {
    writeFileSync(join(dir, 'flis-api.ts'), ts);
    writeFileSync(join(dir, 'use.ts'), USE_TYPES);
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
    const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', dir], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("docs/openapi.md's openapi-typescript commands keep optional what the spec leaves optional, and name the installed bundle", async () => {
  const doc = readFileSync(join(ROOT, 'docs/openapi.md'), 'utf8');
  const commands = doc.split('\n').filter((l) => l.startsWith('npx openapi-typescript '));
  assert.deepEqual(
    commands.map((c) => c.split(' ')[2]),
    ['specs/openapi.bundled.yaml', 'node_modules/flis-conformance/dist/specs/openapi.bundled.yaml'],
  );
  for (const c of commands) assert.match(c, / --empty-objects-unknown --default-non-nullable false /, c);
  // The flag matters: with openapi-typescript's default, a field with a default (noPayment) becomes required.
  const asDocumented = astToString(
    await openapiTS(pathToFileURL(BUNDLED_FILE), { emptyObjectsUnknown: true, defaultNonNullable: false }),
  );
  const byDefault = astToString(await openapiTS(pathToFileURL(BUNDLED_FILE), { emptyObjectsUnknown: true }));
  assert.match(asDocumented, /\bnoPayment\?: boolean/);
  assert.match(byDefault, /\bnoPayment: boolean/);
});

test('Prism, mocking from the bundle on loopback, answers GET /offers with offers that validate against Offer', async () => {
  const prism = join(dirname(require.resolve('@stoplight/prism-cli/package.json')), 'dist/index.js');
  const child = spawn(process.execPath, [prism, 'mock', '--host', '127.0.0.1', '--port', '0', BUNDLED_FILE], {
    env: { ...process.env, FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  const exited = once(child, 'exit');
  try {
    const [, origin] = await waitForOutput(child, /Prism is listening on (http:\/\/127\.0\.0\.1:\d+)/, 90_000);
    // Prism serves the paths at its root: it does not apply the server URL's /apis/v0.
    const res = await fetch(`${origin}/offers`, { headers: { authorization: 'Bearer any-token' } });
    assert.equal(res.status, 200, stderr);
    const offers = (await res.json()) as unknown[];
    assert.ok(Array.isArray(offers) && offers.length > 0, JSON.stringify(offers));

    const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
    ajv.addSchema({ $id: 'https://flis-conformance.invalid/openapi.bundled.json', ...bundled() });
    const isOffer = ajv.getSchema('https://flis-conformance.invalid/openapi.bundled.json#/components/schemas/Offer')!;
    for (const offer of offers) assert.ok(isOffer(offer), JSON.stringify(isOffer.errors));

    // The security requirement came through too: no bearer token, no offers (spec 5).
    assert.equal((await fetch(`${origin}/offers`)).status, 401);
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
});
