/** Allure results as a run leaves them, and the data a single-file Allure report embeds. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** One run's Allure results: a passed and a failed test, fresh files as a run leaves them. */
export function writeAllureResults(results: string): void {
  rmSync(results, { recursive: true, force: true });
  mkdirSync(results, { recursive: true });
  const now = Date.now();
  for (const [name, status] of [
    ['auth-required · all operations', 'passed'],
    ['response-schema · getOffer', 'failed'],
  ] as const) {
    const uuid = randomUUID();
    writeFileSync(
      join(results, `${uuid}-result.json`),
      JSON.stringify({
        uuid,
        historyId: name,
        testCaseId: name,
        name,
        fullName: name,
        status,
        stage: 'finished',
        start: now,
        stop: now + 5,
        labels: [
          { name: 'epic', value: 'Offers' },
          { name: 'feature', value: 'getOffer' },
          { name: 'story', value: name.split(' ')[0] ?? name },
        ],
        statusDetails: status === 'failed' ? { message: 'response does not match offer-list.schema.json' } : {},
        steps: [],
        attachments: [],
        parameters: [],
        links: [],
      }),
    );
  }
}

/** A data file the single-file report embeds as d("name","base64"). */
export function embeddedJson(html: string, name: string): unknown {
  const m = html.match(new RegExp(`d\\("${name.replace(/[.]/g, '\\.')}","([A-Za-z0-9+/=]+)"\\)`));
  assert.ok(m?.[1], `${name} is embedded in the report`);
  return JSON.parse(Buffer.from(m[1], 'base64').toString('utf8'));
}
