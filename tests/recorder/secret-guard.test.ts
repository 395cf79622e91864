/**
 * The writer's fast guard (recorder/secret-guard.ts) answers exactly what the
 * compiled forms' regular expression answers: a property over secrets with
 * the characters that take other forms (`%`, `\`, `+`, `/`, space, non-ASCII),
 * texts with and without an encoding of one, and clean texts full of the
 * characters that make the guard search windows.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { SecretForms } from '../../errors/secret-forms.ts';
import { guardFind, guardFindPieces } from '../../recorder/secret-guard.ts';

const unit = fc.constantFrom(...'abcXYZ019+/ %\\"-_=é😀'.split(/(?:)/u));
const secretArb = fc.array(unit, { minLength: 1, maxLength: 24 }).map((cs) => cs.join(''));
const noise = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.constantFrom('%', '\\', '+', '%2B', '\\u0061', '\\"', ' ', '-', '_'),
);

function encodings(s: string): string[] {
  const b = Buffer.from(s, 'utf8');
  return [
    s,
    encodeURIComponent(s),
    encodeURIComponent(s).toLowerCase(),
    JSON.stringify(s).slice(1, -1),
    Buffer.concat([Buffer.from('x'), b]).toString('base64'),
    Buffer.concat([Buffer.from('xy'), b]).toString('base64url'),
    encodeURIComponent(b.toString('base64')),
    s.replace(/ /g, '+'),
  ];
}

describe('secret guard', () => {
  it('finds a secret exactly when the compiled forms do', () => {
    fc.assert(
      fc.property(
        fc.array(secretArb, { minLength: 1, maxLength: 2 }),
        fc.array(noise, { maxLength: 40 }),
        fc.nat(),
        (secrets, pieces, k) => {
          const forms = new SecretForms(secrets.map((value, i) => ({ label: `S${i}`, value })));
          const secret = secrets[k % secrets.length]!;
          const all = encodings(secret);
          const texts = [pieces.join(''), `${pieces.join('')}${all[k % all.length]}${pieces.join('|')}`];
          for (const text of texts)
            assert.equal(guardFind(text, forms) !== undefined, forms.find(text) !== undefined, JSON.stringify(text));
        },
      ),
      { numRuns: 600, seed: 20261124 },
    );
  });

  it('finds a secret in a text given in pieces exactly when it is in the pieces joined, across joins too', () => {
    fc.assert(
      fc.property(
        secretArb,
        fc.array(noise, { maxLength: 12 }),
        fc.array(fc.nat(), { maxLength: 4 }),
        fc.nat(),
        (secret, pieces, cuts, k) => {
          const forms = new SecretForms([{ label: 'S', value: secret }]);
          const all = encodings(secret);
          const joined = `${pieces.join('')}${k % 3 === 0 ? '' : all[k % all.length]}${pieces.join('|')}`;
          // Cut anywhere (through a form too); every other piece an object, as a body's flow text is.
          const at = [...new Set(cuts.map((c) => c % (joined.length + 1)))].sort((a, b) => a - b);
          const parts = [0, ...at].map((from, i) => joined.slice(from, at[i] ?? joined.length));
          const given = parts.map((text, i) => (i % 2 === 1 ? { text } : text));
          assert.equal(
            guardFindPieces(given, forms) !== undefined,
            forms.find(joined) !== undefined,
            JSON.stringify(parts),
          );
        },
      ),
      { numRuns: 600, seed: 20261124 },
    );
  });

  it('finds a secret across long object pieces, objects side by side and one object given twice, where the joined text has it', () => {
    fc.assert(
      fc.property(
        secretArb,
        fc.array(fc.tuple(fc.boolean(), fc.array(noise, { maxLength: 6 }), fc.nat(40)), { minLength: 1, maxLength: 6 }),
        fc.nat(),
        fc.nat(),
        (secret, specs, k, where) => {
          const forms = new SecretForms([{ label: 'S', value: secret }]);
          const all = encodings(secret);
          // Object pieces long enough to be searched once and kept (longer than twice the guard's reach, 12 a character).
          const pad = 'x'.repeat(24 * secret.length + 1);
          const given: Array<string | { text: string }> = specs.map(([object, words, n]) =>
            object
              ? { text: `${words.join('')}${pad.slice(0, pad.length + n)}${pad}${words.join('|')}` }
              : words.join(''),
          );
          if (k % 3 !== 0) {
            // A form put across the join after piece i (cut anywhere in it), or at the end of the last piece.
            const i = where % given.length;
            const form = all[k % all.length]!;
            const cut = (k >> 2) % (form.length + 1);
            const textOf = (p: string | { text: string }): string => (typeof p === 'string' ? p : p.text);
            const put = (j: number, text: string): void => {
              given[j] = typeof given[j] === 'string' ? text : { text };
            };
            put(i, `${textOf(given[i]!)}${form.slice(0, cut)}`);
            if (i + 1 < given.length) put(i + 1, `${form.slice(cut)}${textOf(given[i + 1]!)}`);
            else put(i, `${textOf(given[i]!)}${form.slice(cut)}`);
          }
          // The first object also stands again at the end: searched once, found (or not) the same way again.
          const first = given.find((p) => typeof p !== 'string');
          if (first) given.push('--', first);
          const joined = given.map((p) => (typeof p === 'string' ? p : p.text)).join('');
          const hit = guardFindPieces(given, forms);
          assert.equal(hit !== undefined, forms.find(joined) !== undefined, JSON.stringify(given));
          if (hit)
            assert.ok(
              forms.find(joined.slice(hit.index, hit.index + 12 * secret.length)),
              'the index points at the form',
            );
        },
      ),
      { numRuns: 600, seed: 20261124 },
    );
  });

  it('names the secret and the form it found', () => {
    const forms = new SecretForms([{ label: 'FLIS_TOKEN', value: 'tok+en/abc123456789' }]);
    assert.deepEqual(guardFind('x tok+en/abc123456789 y', forms), { label: 'FLIS_TOKEN', form: 'raw', index: 2 });
    const arrows = new SecretForms([{ label: 'T', value: '>>>>>>>>>>>>>>>>' }]);
    assert.equal(guardFind(`a${Buffer.from('>>>>>>>>>>>>>>>>').toString('base64url')}b`, arrows)?.form, 'base64url');
    assert.equal(guardFind(`a${Buffer.from('>>>>>>>>>>>>>>>>').toString('base64')}b`, arrows)?.form, 'base64');
    assert.equal(guardFind(`"${encodeURIComponent('tok+en/abc123456789')}"`, forms)?.form, 'percent-encoded');
    assert.equal(guardFind('nothing here % \\ +', forms), undefined);
  });
});
