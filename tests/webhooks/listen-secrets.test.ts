/**
 * A delivery that carries a secret (a service echoing the token in a payload) is recorded with the secret redacted;
 * the listener keeps serving the deliveries after it, prints no stack trace, and the cassette holds no form of the
 * token. A real `flis webhooks listen` process, real POSTs on loopback.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { SecretForms } from '../../errors/secret-forms.ts';
import { readCassette } from '../../recorder/cassette-reader.ts';
import { WebhookCassette } from '../../webhooks/cassette.ts';
import type { Delivery } from '../../webhooks/receiver.ts';
import { waitForOutput } from '../child-output.ts';
import { type FlisProcess, startFlis } from '../runner/helpers.ts';

const TOKEN = 'hook-token-Wq83LmZr7pK2';
const dir = mkdtempSync(join(tmpdir(), 'flis-listen-secrets-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const envelope = (note: string): string =>
  JSON.stringify({ type: 'BOOKING', payload: { bookingId: 'bk-1', note, echo: Buffer.from(note).toString('base64') } });

/** Resolves once everything the child printed so far matches (a line printed before the wait began counts too). */
function printed(flis: FlisProcess, pattern: RegExp, deadlineMs: number): Promise<void> {
  if (pattern.test(flis.out())) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const check = (): void => {
      if (!pattern.test(flis.out())) return;
      clearTimeout(timer);
      flis.child.stdout?.off('data', check);
      resolve();
    };
    const timer = setTimeout(
      () => reject(new Error(`no ${pattern} within ${deadlineMs} ms:\n${flis.out()}`)),
      deadlineMs,
    );
    flis.child.stdout?.on('data', check);
  });
}

describe('flis webhooks listen with a secret in a delivery', () => {
  it('records it redacted and keeps serving', async () => {
    const cassette = join(dir, 'wh.yaml');
    const flis = startFlis(['webhooks', 'listen', '--cassette', cassette], { FLIS_TOKEN: TOKEN });
    try {
      const [, url] = await waitForOutput(flis.child, /listening for webhooks at (\S+?),/, 60_000);
      const post = (body: string) =>
        fetch(url!, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then((r) => r.status);
      assert.equal(await post(envelope(`Bearer ${TOKEN}`)), 204);
      assert.equal(await post(envelope('nothing secret')), 204, 'the delivery after the secret one is served');
      await printed(flis, /^#2 /m, 30_000);
      assert.equal(await post(envelope(`token=${encodeURIComponent(TOKEN)}`)), 204);
      await printed(flis, /^#3 [^\n]*\n[\s\S]*recorded/m, 30_000);
    } finally {
      flis.child.kill('SIGINT');
    }
    const code = await flis.exited;
    assert.equal(code, 0, flis.out());
    assert.doesNotMatch(flis.out(), /^\s+at /m, 'no stack trace');
    assert.doesNotMatch(flis.out(), /CassetteSecretError/);
    assert.match(flis.out(), /recorded, with a secret it carried redacted/);
    const text = readFileSync(cassette, 'utf8');
    assert.equal(
      new SecretForms([{ label: 'FLIS_TOKEN', value: TOKEN }]).find(text),
      undefined,
      'no form of the token',
    );
    const exchanges = readCassette(cassette).exchanges;
    assert.equal(exchanges.length, 3, `every delivery is recorded:\n${text}`);
    assert.match(text, /\[REDACTED\]/);
  });

  it('redacts a secret in a kept header too, and says each delivery was written', () => {
    const file = join(dir, 'refused.yaml');
    const cassette = new WebhookCassette(file, { FLIS_TOKEN: TOKEN });
    const delivery = (seq: number, text: string): Delivery => ({
      seq,
      receivedAt: new Date(0).toISOString(),
      method: 'POST',
      // A header value is written as it came: the last guard must catch a secret there and refuse, never throw.
      path: '/hooks',
      headers: { 'content-type': 'application/json', 'user-agent': `agent ${TOKEN}` },
      text,
      violations: [],
    });
    const first = cassette.append(delivery(1, envelope('a')));
    const second = cassette.append(delivery(2, envelope('b')));
    cassette.close();
    assert.equal(first.written, true, JSON.stringify(first));
    assert.equal(second.written, true);
    const text = readFileSync(file, 'utf8');
    assert.equal(new SecretForms([{ label: 'FLIS_TOKEN', value: TOKEN }]).find(text), undefined, text);
  });
});
