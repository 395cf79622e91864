/**
 * The matrix page in Debian's headless Chromium, on both databases: a partner signs in with its token and sees its
 * own row only, clicks from a cell to its regress report and to its certificate, and cannot open another partner's;
 * the admin sees every row. Every request the pages make goes to the registry itself (nothing is loaded from
 * outside), and the pages say so in their Content-Security-Policy.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from '@playwright/test';
import { launchChromium, LAPTOP, NO_CHROMIUM, SHOTS } from '../reporting/chromium-helpers.ts';
import {
  ADMIN_TOKEN,
  addPartner,
  call,
  ENGINES,
  publicationBody,
  recordedCassette,
  registryOn,
  type TestRegistry,
  tempDir,
} from './helpers.ts';

const tmp = tempDir();
after(() => tmp.cleanup());
let browser: Browser | undefined;
let cassette = '';

before(async () => {
  if (NO_CHROMIUM) return;
  cassette = await recordedCassette(tmp.dir);
  browser = await launchChromium();
});
after(async () => browser?.close());

for (const engine of ENGINES) {
  describe(`the matrix page on the ${engine} database`, { skip: NO_CHROMIUM }, () => {
    let reg: TestRegistry;
    const tokens: Record<string, string> = {};

    before(async () => {
      reg = await registryOn(engine, tmp.dir);
      const ids: Record<string, number> = {};
      for (const name of ['acme', 'globex']) {
        tokens[name] = await addPartner(reg.url, name, ['sandbox']);
        const r = await call(reg.url, 'POST', '/api/publications', {
          token: tokens[name],
          json: publicationBody(name, `${name}-run`, cassette, name === 'acme' ? 'certified' : 'not-certified'),
          headers: { 'idempotency-key': `${name}-publication` },
        });
        assert.equal(r.status, 201, r.text);
        ids[name] = r.json<{ id: number }>().id;
      }
      const r = await call(reg.url, 'POST', '/api/releases/2.4.0/replays', {
        token: ADMIN_TOKEN,
        headers: { 'idempotency-key': 'matrix-run-1' },
        json: {
          runId: 'run-1',
          deployment: 'embedded',
          toolVersion: '0.1.0',
          replays: ['acme', 'globex'].map((name) => ({
            partner: name,
            publication: ids[name],
            verdict: name === 'acme' ? 'unchanged' : 'broken',
            summary: `${name} summary`,
            reportHtml: `<!doctype html><title>flis regress</title><h1>${name}-replay-report</h1>`,
            reportJson: '{}',
          })),
        },
      });
      assert.equal(r.status, 201, r.text);
    });
    after(async () => reg?.stop());

    async function signIn(token: string) {
      const context = await browser!.newContext({ viewport: LAPTOP });
      const page = await context.newPage();
      const requests: string[] = [];
      page.on('request', (q) => requests.push(q.url()));
      const first = await page.goto(`${reg.url}/matrix`);
      assert.equal(first?.status(), 401, 'the matrix asks for a token first');
      assert.match(first?.headers()['content-security-policy'] ?? '', /default-src 'none'/);
      await page.fill('input[name=token]', token);
      await Promise.all([page.waitForURL(`${reg.url}/matrix`), page.click('button[type=submit]')]);
      return { context, page, requests };
    }

    it("a partner's token shows its own row only, and a cell opens its report", async () => {
      const { context, page, requests } = await signIn(tokens.acme!);
      try {
        const rows = await page
          .locator('tr[data-partner]')
          .evaluateAll((trs) => trs.map((t) => t.getAttribute('data-partner')));
        assert.deepEqual(rows, ['acme', 'acme'], 'one row in each table, its own');
        assert.ok(!(await page.content()).includes('globex'), "nothing of globex's is on acme's page");
        mkdirSync(SHOTS, { recursive: true });
        await page.screenshot({ path: join(SHOTS, `registry-matrix-partner-${engine}.png`), fullPage: true });
        await Promise.all([page.waitForURL(/\/reports\/replays\/\d+$/), page.click('#replay-acme-2\\.4\\.0')]);
        assert.equal(await page.locator('h1').textContent(), 'acme-replay-report');
        await page.goBack();
        await Promise.all([
          page.waitForURL(/\/reports\/certificates\/\d+$/),
          page.locator('#contracts td.cell a').first().click(),
        ]);
        assert.equal(await page.locator('h1').textContent(), 'acme: certified');
        const other = await page.goto(`${reg.url}/reports/replays/2`);
        assert.equal(other?.status(), 403, "globex's report is refused to acme");
        assert.ok(!(await page.content()).includes('globex-replay-report'));
        const outside = requests.filter((u) => !u.startsWith(`${reg.url}/`));
        assert.deepEqual(outside, [], 'every request went to the registry');
      } finally {
        await context.close();
      }
    });

    it("the admin's token shows every partner's row", async () => {
      const { context, page } = await signIn(ADMIN_TOKEN);
      try {
        const rows = await page
          .locator('#releases tr[data-partner]')
          .evaluateAll((trs) => trs.map((t) => t.getAttribute('data-partner')));
        assert.deepEqual(rows, ['acme', 'globex']);
        assert.equal(await page.locator('#replay-globex-2\\.4\\.0').textContent(), 'BROKEN');
        await page.screenshot({ path: join(SHOTS, `registry-matrix-admin-${engine}.png`), fullPage: true });
      } finally {
        await context.close();
      }
    });
  });
}
