/**
 * The writer's last guard, fast: does any form of a known secret appear in a
 * document about to be written? errors/secret-forms.ts compiles every form into
 * one regular expression, which tries its alternatives at every character of
 * the text (about 1.5 ns a character, 20 µs for a 14 kB answer: as much as the
 * rest of the recording). This answers the same question from the same forms
 * in two cheaper passes, and is exact:
 *
 * - a form that holds no `%`, no `\` (and no `+`, when a secret holds a space)
 *   is spelt only with the secret's own characters: the raw value, or a base64
 *   core with each `+`/`/` as itself or its base64url twin. Those spellings are
 *   few, and each is found by indexOf (a memchr-speed search);
 * - a form that holds one of those characters lies within the longest form's
 *   length of it, so the regular expression runs only on the windows around
 *   them, which are few in JSON and YAML (and it runs on the whole text when
 *   they are many).
 */
import { base64Cores, type SecretHit, type SecretForms } from '../errors/secret-forms.ts';

/** More spellings than this (a core full of `+` and `/`) and the literal pass is not worth it: the regex runs. */
const MAX_SPELLINGS = 64;

interface Spelling {
  text: string;
  label: string;
  form: SecretHit['form'];
}

interface Guard {
  /** Undefined when a core has too many spellings: then the regex runs on the whole text. */
  spellings: Spelling[] | undefined;
  /** Characters that start every encoded unit (percent-encoding, escapes, `+` for a space). */
  specials: string[];
  /** The longest text any form of any secret can take: each character at most 12 (a 4-byte UTF-8 character percent-encoded). */
  reach: number;
}

const guards = new WeakMap<SecretForms, Guard | undefined>();

/** Every spelling of a base64 core with `+` and `/` each as itself or its base64url twin, or undefined if too many. */
function coreSpellings(core: string): string[] | undefined {
  let out = [''];
  for (const c of core) {
    const twin = c === '+' ? '-' : c === '/' ? '_' : undefined;
    out = twin ? out.flatMap((s) => [s + c, s + twin]) : out.map((s) => s + c);
    if (out.length > MAX_SPELLINGS) return undefined;
  }
  return out;
}

function guardOf(forms: SecretForms): Guard {
  let g = guards.get(forms);
  if (g) return g;
  const spellings: Spelling[] = [];
  const specials = new Set(['%', '\\']);
  let reach = 0;
  let ok = true;
  for (const { label, value } of forms.secrets) {
    if (value.includes(' ')) specials.add('+');
    spellings.push({ text: value, label, form: 'raw' });
    reach = Math.max(reach, 12 * value.length);
    for (const core of base64Cores(value)) {
      const all = coreSpellings(core);
      if (!all) ok = false;
      for (const text of all ?? [])
        spellings.push({ text, label, form: /[-_]/.test(text) && text !== core ? 'base64url' : 'base64' });
    }
  }
  g = { spellings: ok ? spellings : undefined, specials: [...specials], reach };
  guards.set(forms, g);
  return g;
}

/** A form of a secret in `text`, if any (not necessarily the leftmost). */
export function guardFind(text: string, forms: SecretForms): SecretHit | undefined {
  if (forms.length === 0) return undefined;
  const g = guardOf(forms);
  if (!g.spellings) return forms.find(text);
  for (const s of g.spellings) {
    const index = text.indexOf(s.text);
    if (index >= 0) return { label: s.label, form: s.form, index };
  }
  return findNearSpecials(text, forms, g);
}

/**
 * A long text that keeps what it was searched for and what was found (yaml-emit.ts FlowJson, a body written
 * again): a field of its own, cheaper to set than a hidden property.
 */
export interface SearchedText {
  readonly text: string;
  searched?: unknown;
}

interface Search {
  forms: SecretForms;
  hit: SecretHit | undefined;
}

function findOnce(piece: SearchedText, forms: SecretForms): SecretHit | undefined {
  const known = piece.searched as Search | undefined;
  if (known?.forms === forms) return known.hit;
  const hit = guardFind(piece.text, forms);
  piece.searched = { forms, hit } satisfies Search;
  return hit;
}

/**
 * A form of a secret in the text the pieces make when joined. A piece given as
 * an object (a body's flow text, the same object each time it is written) is
 * searched once for a set of forms. The strings between are searched each
 * time, each run of them as one window with the `reach` characters of the
 * objects on either side: no form is longer than the guard's reach, so one
 * that crosses a join lies within that reach of it on either side. An object
 * no longer than twice the reach is searched as a string, so that no form can
 * span one and reach the runs on both sides of it.
 */
export function guardFindPieces(
  pieces: ReadonlyArray<string | SearchedText>,
  forms: SecretForms,
): SecretHit | undefined {
  if (forms.length === 0) return undefined;
  const { reach } = guardOf(forms);
  /** Where the next piece starts in the joined text, and the window of the current run, from `windowAt`. */
  let at = 0;
  let window = '';
  let windowAt = 0;
  for (const p of pieces) {
    const t = typeof p === 'string' ? p : p.text;
    if (typeof p === 'string' || t.length <= 2 * reach) {
      window += t;
      at += t.length;
      continue;
    }
    const own = findOnce(p, forms);
    if (own) return { ...own, index: own.index + at };
    const hit = guardFind(window + t.slice(0, reach), forms);
    if (hit) return { ...hit, index: hit.index + windowAt };
    at += t.length;
    windowAt = at - reach;
    window = t.slice(t.length - reach);
  }
  const hit = guardFind(window, forms);
  return hit ? { ...hit, index: hit.index + windowAt } : undefined;
}

/** The regex on the windows around each special character, merged; on the whole text when they cover much of it. */
function findNearSpecials(text: string, forms: SecretForms, g: Guard): SecretHit | undefined {
  const at: number[] = [];
  for (const c of g.specials)
    for (let i = text.indexOf(c); i >= 0; i = text.indexOf(c, i + 1)) {
      at.push(i);
      if (at.length * 2 * g.reach > text.length) return forms.find(text);
    }
  if (at.length === 0) return undefined;
  at.sort((a, b) => a - b);
  let from = Math.max(0, at[0]! - g.reach);
  let to = at[0]! + g.reach;
  for (let k = 1; k <= at.length; k += 1) {
    const p = at[k];
    if (p !== undefined && p - g.reach <= to) {
      to = p + g.reach;
      continue;
    }
    const hit = forms.find(text.slice(from, to));
    if (hit) return { ...hit, index: hit.index + from };
    if (p === undefined) break;
    from = Math.max(0, p - g.reach);
    to = p + g.reach;
  }
  return undefined;
}
