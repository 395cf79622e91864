/**
 * The fault layer (mock/faults/) is apart from the mock's semantics: every fault switch has exactly one bend, the
 * routes and stores name no fault, the conformant mock runs without a hook of the layer, and a bend of a route the
 * mock does not have stops the mock from starting instead of leaving its fault silently off.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { createContext } from '../../mock/context.ts';
import { faultAreas, installFaults } from '../../mock/faults/install.ts';
import { FaultLayer } from '../../mock/faults/layer.ts';
import { faultNames, parseFaults } from '../../mock/faults.ts';
import { resolveVariant } from '../../mock/variant.ts';
import { webhookFaultNames } from '../../mock/webhook-faults.ts';
import { ROOT } from '../runner/helpers.ts';

/** What holds the mock's semantics: the routes, the stores, the offer model, auth, the webhook triggers and hub. */
function semanticFiles(): string[] {
  const mock = join(ROOT, 'mock');
  const routes = readdirSync(join(mock, 'routes')).map((f) => join(mock, 'routes', f));
  const others = [
    'store.ts',
    'billing-store.ts',
    'offers-store.ts',
    'invoice-store.ts',
    'offer-model.ts',
    'auth.ts',
    'context.ts',
    'webhook-hub.ts',
    'webhook-triggers.ts',
  ].map((f) => join(mock, f));
  return [...routes, ...others];
}

describe('the fault layer', () => {
  it('gives every fault switch exactly one bend, in one area module', () => {
    const owners = new Map<string, string[]>();
    for (const [area, bends] of Object.entries(faultAreas))
      for (const name of Object.keys(bends)) owners.set(name, [...(owners.get(name) ?? []), area]);
    assert.deepEqual(
      [...owners].filter(([, areas]) => areas.length > 1),
      [],
      'a fault bent by two area modules',
    );
    assert.deepEqual([...owners.keys()].sort(), [...faultNames].sort());
  });

  it('leaves the routes and stores free of fault switches', () => {
    const names = [...faultNames, ...webhookFaultNames];
    const found = semanticFiles().flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      const hits: string[] = names.filter((n) => text.includes(`'${n}'`));
      if (/faults\.has\(|from '\.\.?\/(?:\.\.\/)?faults(?:\.ts|\/)/.test(text)) hits.push('a fault switch or import');
      return hits.map((h) => `${file.slice(ROOT.length + 1)}: ${h}`);
    });
    assert.deepEqual(found, [], 'fault code in a semantic file: move it to mock/faults/');
  });

  it('adds not one hook to the conformant mock', () => {
    const hooks: string[] = [];
    const app = { addHook: (name: string) => hooks.push(name) } as unknown as FastifyInstance;
    const prefix = installFaults(app, {
      context: createContext(resolveVariant(), 0),
      token: 't',
      apiPrefix: '/apis/v0',
      faults: parseFaults([]),
      webhookFaults: new Set(),
    });
    assert.deepEqual(hooks, []);
    assert.equal(prefix, '/apis/v0');
  });

  it('refuses to start when a bend names a route the mock does not have', async () => {
    const app = Fastify();
    const layer = new FaultLayer(createContext(resolveVariant(), 0), 't', '/apis/v0');
    layer.route('GET /no-such-route', { answer: () => null });
    layer.install(app);
    app.get('/apis/v0/offers', async () => []);
    await assert.rejects(async () => app.ready(), /fault layer: no route GET \/no-such-route/);
    await app.close();
  });

  it('bends HEAD as GET, and only the route it names', async () => {
    const app = Fastify();
    const layer = new FaultLayer(createContext(resolveVariant(), 0), 't', '/apis/v0');
    layer.route('GET /a', {
      onSend: (payload, _request, reply) => {
        reply.header('x-bent', 'yes');
        return payload;
      },
    });
    layer.install(app);
    app.get('/apis/v0/a', async () => ({ a: 1 }));
    app.get('/apis/v0/b', async () => ({ b: 1 }));
    const bent = async (method: string, url: string) => (await app.inject({ method, url })).headers['x-bent'];
    assert.equal(await bent('GET', '/apis/v0/a'), 'yes');
    assert.equal(await bent('HEAD', '/apis/v0/a'), 'yes');
    assert.equal(await bent('GET', '/apis/v0/b'), undefined);
    await app.close();
  });
});
