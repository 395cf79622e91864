/**
 * Issue 18 "done means": a full run against the embedded mock through all
 * three real components at once (a forward proxy demanding credentials, an
 * HTTPS deployment of a private CA requiring a client certificate, and OAuth
 * client credentials from oauth2-mock-server with tokens that expire every
 * 5 s) is CERTIFIED, its reports show the token renewals, and no token, the
 * client secret, the proxy password or the key passphrase appears in any artifact.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { secretForms } from '../../suites/lib/redact.ts';
import { runFlis } from './helpers/flis.ts';
import { type PartnerSite, startPartnerSite } from './helpers/partner-site.ts';

let site: PartnerSite;

before(async () => {
  site = await startPartnerSite(5, 'full-run');
});

after(() => site.close());

function files(root: string): string[] {
  return readdirSync(root).flatMap((name) => {
    const full = join(root, name);
    return statSync(full).isDirectory() ? files(full) : [full];
  });
}

test('a full run through proxy, private CA with client certificate, and 5 s OAuth tokens is CERTIFIED, leaking nothing', async () => {
  const reportDir = join(site.dir, 'reports');
  const args = ['run', '--base-url', site.baseUrl, '--allow-writes', '--report-dir', reportDir, '--progress', 'none'];
  const o = await runFlis([...args, ...site.flags()], site.env, 600_000);
  const output = `${o.stdout}\n${o.stderr}`;
  assert.equal(o.code, 0, output);
  const certificate = JSON.parse(readFileSync(join(reportDir, 'certificate.json'), 'utf8')) as {
    verdict: { status: string };
  };
  assert.equal(certificate.verdict.status, 'certified', output);
  assert.ok(site.oauth.issued.length >= 2, `tokens were renewed during the run (${site.oauth.issued.length} issued)`);
  assert.ok(site.proxy.seen.tunnels > 0, 'the deployment was reached through the proxy');
  assert.ok(site.counts.valid > 0, 'the deployment saw valid tokens from the authorization server');
  assert.match(
    readFileSync(join(reportDir, 'run.json'), 'utf8'),
    /"tokenRefreshes":\s*[1-9]/,
    'run.json shows renewals',
  );
  const forms = site.secrets().flatMap(secretForms);
  for (const file of files(reportDir)) {
    const text = readFileSync(file).toString('latin1');
    for (const form of forms) assert.ok(!text.includes(form), `no secret in ${file}`);
  }
  for (const form of forms) assert.ok(!output.includes(form), 'no secret in the output');
});
