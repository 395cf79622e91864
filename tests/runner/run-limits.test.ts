/**
 * How many workers a run takes (runner/run-limits.ts, runner/reach-target.ts): a loopback host is never distant,
 * however slowly a busy machine answers; the distance is the median of several probes, so one slow probe does not
 * decide; and --workers always wins.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { test } from 'node:test';
import { reachTarget } from '../../runner/reach-target.ts';
import {
  DEFAULT_WORKERS,
  DISTANT_WORKERS,
  defaultWorkers,
  isLoopbackHost,
  medianMs,
  runWorkers,
} from '../../runner/run-limits.ts';

test('loopback hosts are told apart from others', () => {
  for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', 'api.localhost', '[::1]', '::1', '[::ffff:127.0.0.1]'])
    assert.equal(isLoopbackHost(host), true, host);
  for (const host of ['10.0.0.1', '128.0.0.1', 'example.com', 'localhost.example.com', '[::2]', '1127.0.0.1'])
    assert.equal(isLoopbackHost(host), false, host);
});

test('the median decides, not the quickest or the slowest probe', () => {
  assert.equal(medianMs([]), undefined);
  assert.equal(medianMs([90, 3, 4, 5, 250]), 5, 'two slow probes of five do not make a deployment distant');
  assert.equal(medianMs([30, 25, 2, 40]), 27.5);
});

test('--workers always wins over the distance; without it a distant deployment gets more workers', () => {
  assert.equal(runWorkers(3, 500), 3);
  assert.equal(runWorkers(1, undefined), 1);
  assert.equal(runWorkers(undefined, 500), DISTANT_WORKERS);
  assert.equal(runWorkers(undefined, 5), DEFAULT_WORKERS);
  assert.equal(runWorkers(undefined, undefined), defaultWorkers(undefined));
});

test('a slow deployment on loopback is not measured as distant', async () => {
  // Every answer takes 60 ms, as a loopback server on a busy machine may: three times the distant threshold.
  const server = createServer((_req, res) => setTimeout(() => res.writeHead(401).end(), 60));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  const { port } = server.address() as { port: number };
  const reached = await reachTarget({
    target: {
      name: 'ad-hoc',
      embedded: false,
      liveData: true,
      baseUrl: `http://127.0.0.1:${port}/apis/v0`,
      token: 'run-limits-token-5d2',
      allowWrites: false,
      writesSkippedReason: 'read-only',
    },
    env: {},
  });
  try {
    assert.equal(reached.roundTripMs, undefined, `a loopback host got a round trip of ${reached.roundTripMs} ms`);
    assert.equal(runWorkers(undefined, reached.roundTripMs), DEFAULT_WORKERS);
  } finally {
    await reached.close();
    server.closeAllConnections();
    await new Promise<void>((done) => server.close(() => done()));
  }
});
