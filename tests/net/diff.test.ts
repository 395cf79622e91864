/**
 * `flis diff` through the connection: the embedded mock against the same mock
 * behind an HTTPS gate (private CA, client certificate, OAuth tokens that live
 * 2 s, reached through an authenticating proxy). Same answers, so no
 * difference; expired tokens are renewed, never reported; no secret in the reports.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { secretForms } from '../../core/redact.ts';
import { runFlis } from './helpers/flis.ts';
import { type PartnerSite, startPartnerSite } from './helpers/partner-site.ts';

let site: PartnerSite;

before(async () => {
  site = await startPartnerSite(2, 'diff');
});

after(() => site.close());

test('flis diff reaches a deployment through proxy, private CA, client certificate and renewed tokens', async () => {
  const reportDir = join(site.dir, 'reports');
  const args = ['diff', '--deployment', 'embedded', '--deployment', 'sandbox', '--seed', '7', '--runs', '2'];
  const o = await runFlis(
    [...args, '--report-dir', reportDir, ...site.flags()],
    { ...site.env, FLIS_SANDBOX_BASE_URL: site.baseUrl },
    300_000,
  );
  const output = `${o.stdout}\n${o.stderr}`;
  assert.equal(o.code, 0, output);
  assert.match(o.stdout, /0 difference\(s\)/);
  assert.ok(site.counts.valid > 0, 'the gate saw valid tokens');
  assert.ok(site.proxy.seen.tunnels > 0, 'through the proxy');
  const reports = ['diff.json', 'diff.md'].map((f) => readFileSync(join(reportDir, f), 'utf8')).join('\n');
  for (const form of site.secrets().flatMap(secretForms))
    assert.ok(!`${reports}${output}`.includes(form), 'no secret in the reports or the output');
});
