/**
 * The suites redact with the recorder's forms (errors/secret-forms.ts): a
 * token in a message or report is replaced in every encoding the recorder
 * knows, not only raw, URL-encoded and whole base64.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { REDACTED, redactText, secretForms } from '../../core/redact.ts';

const TOKEN = 'tok-Q8vX2mZr7LpK4nW9sB3yH6dF1cJ5gT0e';
const b64 = (s: string): string => Buffer.from(s).toString('base64');

describe('core/redact.ts shares the recorder forms', () => {
  it('redacts base64 credential forms and partly percent-encoded tokens', () => {
    for (const leaked of [
      TOKEN,
      TOKEN.replace(/-/g, '%2d'),
      Array.from(TOKEN, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join(''),
      b64(`Bearer ${TOKEN}`),
      b64(`someone:${TOKEN}`),
      Buffer.from(`:${TOKEN}`).toString('base64url'),
    ]) {
      const out = redactText(`message ${leaked} end`, [TOKEN]);
      assert.ok(out.includes(REDACTED), leaked);
      for (const form of secretForms(TOKEN)) assert.equal(out.includes(form), false, `${leaked} → ${out}`);
    }
  });

  it('leaves values shorter than 4 characters alone, as before', () => {
    assert.equal(redactText('a b c', ['a']), 'a b c');
    assert.deepEqual(secretForms('abc'), []);
  });
});
