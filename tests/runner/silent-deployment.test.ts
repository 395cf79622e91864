/**
 * A deployment that stops answering (issue 19): a loopback front of the mock accepts every connection but never
 * answers a request for one invoice. With --request-timeout 1s the checks that needed such an answer are
 * inconclusive (never failed), the others judge as usual, and the run goes on to its reports and a verdict.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { startMock } from '../../mock/server.ts';
import { countingProxy, runInvoices } from './helpers.ts';

const TOKEN = 'silent-deployment-token-3f9';
const dir = mkdtempSync(join(tmpdir(), 'flis-silent-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** GET /apis/v0/invoices/{id} and below: accepted, never answered. */
const SILENT = /^\/apis\/v0\/invoices\/[^/?]+/;

test('unanswered requests make their checks inconclusive within the timeout, and the run ends', {
  timeout: 600_000,
}, async () => {
  const mock = await startMock({ token: TOKEN, port: 0 });
  const front = await countingProxy(mock.baseUrl, { hold: (req) => SILENT.test(req.url ?? '') });
  const held = () => front.seen.filter((r) => SILENT.test(r.path)).length;
  try {
    const run = await runInvoices(front.baseUrl, dir, TOKEN, ['--request-timeout', '1s']);
    const summary = run.summary;
    assert.equal(run.code, 0, run.out);
    assert.ok(held() > 0, 'the silent paths were asked for');
    assert.equal(summary.failed, 0, run.out);
    assert.ok(summary.inconclusive >= 1, run.out);
    assert.ok(summary.passed >= 1, 'the checks that needed no silent answer judged as usual');
    // The rule, not the order: every inconclusive check names a request that went unanswered within the timeout.
    // Which one a check met first is the machine's business: on a busy one, a request the front did answer may still
    // take longer than 1 s, and its check is inconclusive too (never failed).
    for (const t of summary.inconclusiveTests)
      assert.match(
        t.reason,
        /did not answer (GET|POST|PUT|PATCH|DELETE) \/apis\/v0\/\S+ within the request timeout of 1 s/,
      );
    assert.ok(
      summary.inconclusiveTests.some((t: { reason: string }) => /GET \/apis\/v0\/invoices\/[^/?\s]+/.test(t.reason)),
      `some check met a silent path: ${JSON.stringify(summary.inconclusiveTests)}`,
    );
    assert.ok(
      summary.network.timeouts >= held(),
      `every held request timed out (${summary.network.timeouts} of ${held()})`,
    );
    assert.match(run.out, /^\d+ tests? inconclusive: the deployment did not answer GET \/apis\/v0\/invoices\//m);
    assert.match(run.out, new RegExp(`network: .*${summary.network.timeouts} timed out`));
    assert.doesNotMatch(run.out, new RegExp(TOKEN));
  } finally {
    await front.close();
    await mock.close();
  }
});
