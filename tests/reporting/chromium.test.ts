/**
 * The certificate HTML and the Allure HTML render in headless Chromium
 * (Debian's `chromium`, installed by .ci/run) with no request leaving the
 * machine: every request the page makes is intercepted, and the only one
 * allowed is the file itself. A screenshot proves something was drawn; it is
 * kept in reports/test-screenshots/ for a person to look at. The Playwright
 * HTML report renders its tests when `flis show-report` serves it over HTTP.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { Browser } from '@playwright/test';
import { buildAllureHtml } from '../../reporting/allure-html.ts';
import { serveReportFolder } from '../../reporting/report-server.ts';
import { writeCertificate } from '../../reporting/write-certificate.ts';
import { writeAllureResults } from './allure-fixtures.ts';
import { LAPTOP, launchChromium, NO_CHROMIUM, openOffline, SHOTS } from './chromium-helpers.ts';
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

describe('the Playwright HTML report, served by flis show-report', { skip: NO_CHROMIUM }, () => {
  // Inside the project (in the ignored .flis-tmp/), so the spec resolves @playwright/test.
  const project = join(process.cwd(), '.flis-tmp');
  let work = '';
  before(() => {
    mkdirSync(project, { recursive: true });
    work = mkdtempSync(join(project, 'show-report-'));
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it('renders its tests over HTTP', async () => {
    writeFileSync(
      join(work, 'served.spec.ts'),
      "import { test } from '@playwright/test';\ntest('a test the report lists', () => {});\n",
    );
    const reportDir = join(work, 'reports');
    const run = spawnSync(
      process.execPath,
      [
        createRequire(import.meta.url).resolve('@playwright/test/cli'),
        'test',
        '--reporter=html',
        join(work, 'served.spec.ts'),
      ],
      {
        cwd: work,
        encoding: 'utf8',
        env: { ...process.env, PLAYWRIGHT_HTML_OUTPUT_DIR: join(reportDir, 'html'), PLAYWRIGHT_HTML_OPEN: 'never' },
      },
    );
    assert.equal(run.status, 0, run.stdout + run.stderr);
    const server = await serveReportFolder(reportDir, 0);
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: LAPTOP });
      const outside: string[] = [];
      await page.route('**/*', (route) => {
        const url = route.request().url();
        if (url.startsWith(server.url) || /^(data|blob):/.test(url)) return route.continue();
        outside.push(url);
        return route.abort();
      });
      await page.goto(server.url);
      await page.getByText('a test the report lists').waitFor();
      await page.screenshot({ path: join(SHOTS, 'playwright-report-served.png') });
      assert.deepEqual(outside, []);
    } finally {
      await browser.close();
      await server.close();
    }
  });
});
