/**
 * Both certificates a person meets first read at a glance in Chromium at 1,400 px (issue 16, section 7):
 * - a faulty server's: the offer shape broken, so nine flows are blocked, each with its own offer id; the banner
 *   says it once, "9 tests blocked by response-schema (getOffer: priceStrategy outside the enum)";
 * - the clean server's (conformant, lenient with bad input, no webhook subscription): one advisory failure, amber in
 *   the bars and the rows, never red, "1 test failed (advisory)", and the webhook reason said once.
 * The banner never has more lines than there are distinct reasons. Screenshots go to reports/test-screenshots/.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from '@playwright/test';
import { buildCertificate } from '../../reporting/certificate.ts';
import type { Certificate } from '../../reporting/certificate-types.ts';
import { renderCertificateHtml } from '../../reporting/certificate-html.ts';
import type { CheckOutcome } from '../../reporting/outcomes.ts';
import { blockedCause } from '../../reporting/skip-groups.ts';
import { operations } from '../../specs/contract.ts';
import { launchChromium, NO_CHROMIUM, openOffline, SHOTS } from './chromium-helpers.ts';
import { failureRecord, outcome } from './fixtures.ts';

const ENUM = '["Deferred","Fixed","Group","Precision","Provided",null]';
const RUN = 'flis-20261124-014305-1k15';
const BLOCKED_FLOWS = ['offer-upsert', 'offer-idempotent', 'offer-cancel', 'offer-cancel', 'offer-bulk'];
const NO_SUBSCRIPTION = 'the spec shows no way to subscribe to webhooks (spec 6); run flis webhooks listen';

function passes(): CheckOutcome[] {
  const all = operations().map((o) => o.operationId);
  return ['auth-required', 'response-schema', 'no-5xx', 'offer-listing'].map((check, i) =>
    outcome({ id: `pass-${i}`, status: 'passed', check, exercised: all }),
  );
}

/** Blocked flows as the suites report them: one offer id (written by the run) per test. */
function blocked(): CheckOutcome[] {
  const ids = ['bulk-fce05b3f3d', 'flags-2770b0aeef', 'offer-0caabadd9a', 'offer-2140bec4ec', 'offer-72f037fa80'];
  const flows = [...BLOCKED_FLOWS, 'offer-listing', 'offer-lifecycle', 'offer-bulk-flags'];
  const schema = flows.map((check, i) =>
    outcome({
      id: `blocked-${i}`,
      status: 'skipped',
      check,
      skipKind: 'blocked',
      skipReason: `blocked by response-schema on getOffer: GET /offers/${RUN}-${ids[i % ids.length]}${i}: /0/priceStrategy must be equal to one of the allowed values: ${ENUM} (offer-list.schema.json)`,
    }),
  );
  const ownWords = outcome({
    id: 'blocked-price',
    status: 'skipped',
    check: 'unknown-price-strategy',
    skipKind: 'blocked',
    skipReason: `blocked by response-schema on getOffer: GET /offers/${RUN}-price-c41374e94c: priceStrategy "Dynamic" is outside the enum of spec 2.2, not the value written`,
  });
  return [...schema, ownWords];
}

function faultyCertificate(): Certificate {
  const failed = ['getOffer', 'listOffers'].map((op, i) =>
    outcome({
      id: `fail-${i}`,
      status: 'failed',
      check: 'response-schema',
      clause: 'spec 4.1, spec 2.2',
      operation: op,
      blamed: [op],
      record: failureRecord({
        operationId: op,
        message: `response does not match offer-list.schema.json (1 violation(s)):\n    /0/priceStrategy: must be equal to one of the allowed values`,
      }),
    }),
  );
  return build([...passes(), ...failed, ...blocked()], 'faulty');
}

function cleanCertificate(): Certificate {
  const advisory = outcome({
    id: 'advisory',
    status: 'failed',
    check: 'bad-input-rejected',
    clause: 'HTTP semantics; spec 2.3',
    severity: 'advisory',
    project: 'offers',
    operation: 'createOffer',
    blamed: ['createOffer'],
    record: failureRecord({
      check: 'bad-input-rejected',
      clause: 'HTTP semantics; spec 2.3',
      severity: 'advisory',
      operationId: 'createOffer',
      message: 'a body of the wrong type was accepted with 200',
    }),
  });
  const webhooks = ['allocated', 'updated', 'payload', 'fact', 'envelope'].map((w) =>
    outcome({
      id: `webhook-${w}`,
      status: 'skipped',
      check: `webhook-${w}`,
      project: 'webhooks',
      skipKind: 'not-shown',
      skipReason: `not shown: ${NO_SUBSCRIPTION}`,
    }),
  );
  return build([...passes(), advisory, ...webhooks], 'clean');
}

function build(outcomes: CheckOutcome[], runId: string): Certificate {
  return buildCertificate({
    run: { outcomes, errors: [] },
    subject: { deployment: 'embedded', baseUrl: 'http://127.0.0.1:1/apis/v0' },
    facts: { seed: 7, runId, suites: 'all', allowWrites: true },
  });
}

describe('a blocked reason is reduced to its owning check and cause', () => {
  it('drops the request, the list index and the schema file, and says an enum breach in words', () => {
    assert.equal(
      blockedCause(
        `GET /offers/x-1: /0/priceStrategy must be equal to one of the allowed values: ${ENUM} (offer.schema.json)`,
      ),
      'priceStrategy outside the enum',
    );
    assert.equal(
      blockedCause('GET /offers/x-2: priceStrategy "Dynamic" is outside the enum of spec 2.2'),
      'priceStrategy outside the enum',
    );
    assert.equal(blockedCause('GET /invoices: /3/created must match format "date-time"'), 'created not a date-time');
    assert.equal(blockedCause('a reason of its own'), 'a reason of its own');
  });
});

const dir = mkdtempSync(join(tmpdir(), 'flis-glance-'));
after(() => rmSync(dir, { recursive: true, force: true }));

interface Seen {
  banner: string[];
  failedTile: string;
  /** Fill colours of the bar segments, and the classes of the marked matrix cells, rows and check headers. */
  fills: string[];
  redCells: number;
  amberCells: number;
  redRows: number;
  amberRows: number;
  redHeaders: number;
  amberHeaders: number;
}

/** What the page shows (no named inner functions: tsx would wrap them in __name, unknown in the page). */
function look(page: Page): Promise<Seen> {
  return page.evaluate(() => {
    return {
      banner: ([...document.querySelectorAll('.banner li')] as HTMLElement[]).map((li) => li.innerText),
      failedTile: (document.querySelector('.tile.t-failed span') as HTMLElement).innerText,
      fills: [...document.querySelectorAll('svg.glance rect')].map((r) => r.getAttribute('fill') ?? ''),
      redCells: document.querySelectorAll('table.matrix td.c.failed').length,
      amberCells: document.querySelectorAll('table.matrix td.c.advisory').length,
      redRows: document.querySelectorAll('table.matrix tr.has-failed').length,
      amberRows: document.querySelectorAll('table.matrix tr.has-advisory').length,
      redHeaders: document.querySelectorAll('table.matrix th.check.has-failed').length,
      amberHeaders: document.querySelectorAll('table.matrix th.check.has-advisory').length,
    };
  });
}

describe('both certificates in Chromium at 1,400 px', { skip: NO_CHROMIUM }, () => {
  let browser: Browser;
  before(async () => {
    browser = await launchChromium();
    mkdirSync(SHOTS, { recursive: true });
  });
  after(async () => browser?.close());

  async function render(name: string, c: Certificate): Promise<Seen> {
    const file = join(dir, `${name}.html`);
    writeFileSync(file, renderCertificateHtml(c));
    const { page } = await openOffline(browser, file);
    await page.screenshot({ path: join(SHOTS, `certificate-glance-${name}.png`) });
    const seen = await look(page);
    await page.close();
    return seen;
  }

  it("the faulty server's banner says each reason once: 9 blocked tests are one line", async () => {
    const seen = await render('faulty', faultyCertificate());
    // Distinct reasons: the failed contract rules, and one broken shape that blocked every offer flow.
    assert.equal(seen.banner.length, 2, seen.banner.join('\n'));
    assert.match(seen.banner[0]!, /^2 failed checks on contract rules/);
    assert.equal(seen.banner[1], '9 tests blocked by response-schema (getOffer: priceStrategy outside the enum)');
    assert.ok(!seen.banner.join('\n').includes(RUN), 'no offer id in the banner');
    assert.equal(seen.failedTile, 'tests failed');
    assert.ok(seen.redCells > 0 && seen.redRows > 0 && seen.redHeaders > 0);
    assert.equal(seen.amberCells + seen.amberRows + seen.amberHeaders, 0);
  });

  it("the clean server's advisory failure is amber in the bars and the rows, never red; the webhook reason is said once", async () => {
    const seen = await render('clean', cleanCertificate());
    assert.equal(seen.banner.length, 2, seen.banner.join('\n'));
    assert.match(seen.banner[0]!, /^1 advisory failure/);
    assert.equal(seen.banner.filter((l) => l.includes('subscribe')).length, 1, seen.banner.join('\n'));
    assert.ok(!/not shown: not shown/.test(seen.banner.join('\n')));
    assert.equal(seen.failedTile, 'test failed (advisory)');
    assert.ok(!seen.fills.includes('#d1242f'), `no red bar: ${[...new Set(seen.fills)].join(', ')}`);
    assert.ok(seen.fills.includes('#e8912d'), 'an amber bar');
    assert.deepEqual([seen.redCells, seen.redRows, seen.redHeaders], [0, 0, 0]);
    assert.ok(seen.amberCells > 0 && seen.amberRows > 0 && seen.amberHeaders > 0);
  });
});
