/**
 * certificate.html at a laptop's width (1,400 px) in headless Chromium, for a
 * certified, a not-certified and a partial run as wide as a real one (125
 * operations × 30 checks): nothing overflows the page or a table, no cell
 * clips its mark, the verdict and coverage are on the first screen, and every
 * failed cell is solid red with a white ✗ linking to its failure. Screenshots
 * go to reports/test-screenshots/ for a person to look at.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from '@playwright/test';
import { renderCertificateHtml } from '../../reporting/certificate-html.ts';
import { type CertificateShape, wideCertificate } from './certificate-fixtures.ts';
import { LAPTOP, launchChromium, NO_CHROMIUM, openOffline, SHOTS } from './chromium-helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'flis-layout-'));
after(() => rmSync(dir, { recursive: true, force: true }));

interface Layout {
  pageWidth: number;
  overflowing: string[];
  clippedCells: number;
  verdict: { text: string; bottom: number };
  coverageBottom: number;
  failedCells: { background: string; colour: string; href: string | null }[];
  svgs: number;
}

/** Measures, in the page, what a person would see as broken (no named inner functions: tsx would wrap them in __name). */
function measure(page: Page): Promise<Layout> {
  return page.evaluate((width) => {
    const overflowing = [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > width + 0.5)
      .map((el) => `${el.tagName.toLowerCase()}.${el.getAttribute('class') ?? '-'}`);
    const cells = [...document.querySelectorAll('table.matrix td.c')] as HTMLElement[];
    const banner = document.querySelector('.banner') as HTMLElement;
    const coverage = document.querySelector('.tile.coverage') as HTMLElement;
    return {
      pageWidth: document.documentElement.scrollWidth,
      overflowing: [...new Set(overflowing)],
      clippedCells: cells.filter((c) => c.scrollWidth > c.clientWidth + 1).length,
      verdict: { text: banner.innerText, bottom: banner.getBoundingClientRect().bottom },
      coverageBottom: coverage.getBoundingClientRect().bottom,
      failedCells: ([...document.querySelectorAll('table.matrix td.c.failed')] as HTMLElement[]).map((c) => ({
        background: getComputedStyle(c).backgroundColor,
        colour: getComputedStyle(c.querySelector('a') ?? c).color,
        href: c.querySelector('a')?.getAttribute('href') ?? null,
      })),
      svgs: document.querySelectorAll('svg.glance').length,
    };
  }, LAPTOP.width);
}

describe("a partner certificate's page", () => {
  it('names its own JSON file in the footer and the partner in the title', () => {
    const c = wideCertificate('certified');
    c.subject.partner = 'ACME Haulage';
    const html = renderCertificateHtml(c);
    assert.match(html, /<footer[^>]*>.*certificate-acme-haulage\.json beside this file/s);
    assert.doesNotMatch(html, /certificate\.json/);
    assert.match(html, /<title>FLIS conformance certificate — ACME Haulage — sandbox<\/title>/);
  });

  it('escapes a check name in the SVG and abbreviates it with the full name as a tooltip', () => {
    const c = wideCertificate('certified');
    c.matrix.checks.push('<b>a-check-name-longer-than-the-label-column</b>');
    const html = renderCertificateHtml(c);
    assert.doesNotMatch(html, /<b>a-check/);
    assert.match(
      html,
      /<title>&lt;b&gt;a-check-name-longer-than-the-label-column&lt;\/b&gt;<\/title>&lt;b&gt;a-check-name-longer-th…/,
    );
  });
});

describe('the failure summary under the verdict', () => {
  it('lists blocking failures first, and at most 40 lines, pointing to the full list', () => {
    const c = wideCertificate('not-certified');
    const [first] = c.failures;
    assert.ok(first);
    c.failures = Array.from({ length: 45 }, (_, i) => ({ ...first, id: `failure-${i + 1}`, blocking: i > 0 }));
    const html = renderCertificateHtml(c);
    const summary = html.slice(
      html.indexOf('<table class="failures">'),
      html.indexOf('</table>', html.indexOf('<table class="failures">')),
    );
    assert.equal(summary.match(/<tr[^>]*><td><a href="#failure-/g)?.length, 40);
    assert.ok(summary.indexOf('#failure-2"') < summary.indexOf('#failure-1"') || !summary.includes('#failure-1"'));
    assert.match(summary, /… and 5 more: every failure is listed under <a href="#failures">/);
    assert.match(html, /<h2 id="failures">Failures \(45\)<\/h2>/);
  });
});

describe('certificate.html at 1,400 px', { skip: NO_CHROMIUM }, () => {
  let browser: Browser;
  before(async () => {
    browser = await launchChromium();
    mkdirSync(SHOTS, { recursive: true });
  });
  after(() => browser?.close());

  async function layout(shape: CertificateShape): Promise<Layout> {
    const file = join(dir, `certificate-${shape}.html`);
    writeFileSync(file, renderCertificateHtml(wideCertificate(shape)));
    const { page, requests } = await openOffline(browser, file);
    try {
      assert.equal(requests.length, 1, `the page requested ${requests.join(', ')}`);
      const m = await measure(page);
      await page.screenshot({ path: join(SHOTS, `certificate-${shape}.png`) });
      await page.locator('table.matrix').scrollIntoViewIfNeeded();
      await page.evaluate(() => document.querySelector('table.matrix')?.scrollIntoView());
      await page.screenshot({ path: join(SHOTS, `certificate-${shape}-matrix.png`) });
      return m;
    } finally {
      await page.close();
    }
  }

  function assertFits(m: Layout): void {
    assert.ok(m.pageWidth <= LAPTOP.width, `the page is ${m.pageWidth} px wide`);
    assert.deepEqual(m.overflowing, [], 'elements reach past the right edge');
    assert.equal(m.clippedCells, 0, 'matrix cells clip their mark');
    assert.ok(m.coverageBottom < LAPTOP.height, 'the coverage is on the first screen');
    assert.equal(m.svgs, 2, 'the two at-a-glance pictures');
  }

  it('certified: fits, and says so first', async () => {
    const m = await layout('certified');
    assertFits(m);
    assert.match(m.verdict.text, /✓ CERTIFIED/);
    assert.deepEqual(m.failedCells, []);
  });

  it('not certified: fits, and every failed cell is solid red with a white ✗ linking to its failure', async () => {
    const c = wideCertificate('not-certified');
    const m = await layout('not-certified');
    assertFits(m);
    assert.match(m.verdict.text, /✗ NOT CERTIFIED/);
    const failedCells = c.matrix.rows.flatMap((r) => Object.values(r.cells).filter((x) => x.status === 'failed'));
    assert.equal(m.failedCells.length, failedCells.length);
    assert.ok(m.failedCells.length >= 3);
    for (const cell of m.failedCells) {
      assert.equal(cell.background, 'rgb(209, 36, 47)');
      assert.equal(cell.colour, 'rgb(255, 255, 255)');
      assert.match(cell.href ?? '', /^#failure-\d+$/);
    }
  });

  it('partial: fits, and says PARTIAL with its scope', async () => {
    const m = await layout('partial');
    assertFits(m);
    assert.match(m.verdict.text, /◐ PARTIAL/);
    assert.match(m.verdict.text, /scope: partial/);
    assert.match(m.verdict.text, /writes are not allowed/);
  });
});
