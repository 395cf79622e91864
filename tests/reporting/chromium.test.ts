/**
 * The certificate HTML and the Allure HTML render in headless Chromium
 * (Debian's `chromium`, installed by .ci/run) with no request leaving the
 * machine: every request the page makes is intercepted, and the only one
 * allowed is the file itself. A screenshot proves something was drawn; it is
 * kept in reports/test-screenshots/ for a person to look at.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { Browser } from '@playwright/test';
import { buildAllureHtml } from '../../reporting/allure-html.ts';
import { writeCertificate } from '../../reporting/write-certificate.ts';
import { writeAllureResults } from './allure-fixtures.ts';
import { launchChromium, NO_CHROMIUM, openOffline, SHOTS } from './chromium-helpers.ts';
import { sampleOutcomes } from './fixtures.ts';

const dir = mkdtempSync(join(tmpdir(), 'flis-chromium-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]);

/** Opens a file offline, screenshots the first screen of it. */
async function render(browser: Browser, file: string, shot: string): Promise<{ requests: string[]; text: string }> {
  const { page, requests } = await openOffline(browser, file);
  try {
    await page.screenshot({ path: shot, fullPage: false });
    return { requests, text: await page.innerText('body') };
  } finally {
    await page.close();
  }
}

/** Two reports of the same results in one report folder: the second has a history to trend. */
async function allureReportTwice(): Promise<string> {
  const results = join(dir, 'allure-results');
  let index = '';
  for (let i = 0; i < 2; i++) {
    writeAllureResults(results);
    index = await buildAllureHtml({
      resultsDirs: [results],
      outputDir: join(dir, 'allure-report'),
      reportName: 'FLIS nightly',
    });
  }
  return index;
}

describe('headless Chromium, offline', { skip: NO_CHROMIUM }, () => {
  let browser: Browser;
  before(async () => {
    browser = await launchChromium();
    mkdirSync(SHOTS, { recursive: true });
  });
  after(() => browser?.close());

  it('renders the certificate, requesting nothing but the file', async () => {
    writeCertificate(
      dir,
      {
        run: { outcomes: sampleOutcomes(), errors: [] },
        subject: { deployment: 'embedded', baseUrl: 'http://127.0.0.1:1/apis/v0' },
        facts: { seed: 1, runId: 'r', suites: 'all', allowWrites: true },
      },
      [],
    );
    const file = join(dir, 'certificate.html');
    const shot = join(dir, 'certificate.png');
    const { requests, text } = await render(browser, file, shot);
    assert.deepEqual(requests, [pathToFileURL(file).href]);
    assert.match(text, /NOT CERTIFIED/);
    assert.match(text, /Operations × checks/);
    const png = readFileSync(shot);
    assert.ok(png.subarray(0, 4).equals(PNG) && png.length > 10_000, `screenshot of ${png.length} bytes`);
    copyFileSync(shot, join(SHOTS, 'certificate.png'));
  });

  it('renders the Allure report that flis report builds, requesting nothing but the file', async () => {
    const index = await allureReportTwice();
    const shot = join(dir, 'allure.png');
    const { requests, text } = await render(browser, index, shot);
    assert.match(text, /FLIS nightly/);
    assert.match(text, /TREND/i);
    assert.deepEqual(
      requests.filter((u) => !u.startsWith('data:') && !u.startsWith('blob:')),
      [pathToFileURL(index).href],
    );
    assert.ok(readFileSync(shot).length > 10_000);
    copyFileSync(shot, join(SHOTS, 'allure.png'));
  });
});
