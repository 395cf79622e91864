/**
 * Wrong tokens that differ only slightly from the real one: a server that
 * compares tokens sloppily (a prefix, ignoring case, all but the last
 * character) lets them through where an unrelated token is refused. They are
 * as secret as the token itself, so every report redacts them too.
 */
export interface NearMiss {
  label: string;
  what: string;
  token: string;
}

function swapCase(s: string): string {
  return [...s].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
}

/** One character in the middle replaced by another letter (not the same letter in another case). */
function oneChanged(token: string): string {
  const i = Math.floor(token.length / 2);
  const c = token[i] ?? '';
  const replacement = c.toLowerCase() === 'x' ? 'y' : 'x';
  return `${token.slice(0, i)}${replacement}${token.slice(i + 1)}`;
}

export const NEAR_MISS_LABELS = [
  'one character changed',
  'last character dropped',
  'one character added',
  'case changed',
] as const;

/** The near misses of a token; a variant that would equal the token (no letters to change case) is left out. */
export function nearMissTokens(token: string): NearMiss[] {
  if (token.length < 2) return [];
  const all: NearMiss[] = [
    { label: NEAR_MISS_LABELS[0], what: 'the real token with one character changed', token: oneChanged(token) },
    { label: NEAR_MISS_LABELS[1], what: 'the real token without its last character', token: token.slice(0, -1) },
    { label: NEAR_MISS_LABELS[2], what: 'the real token with one character added', token: `${token}0` },
    { label: NEAR_MISS_LABELS[3], what: 'the real token with the case of its letters changed', token: swapCase(token) },
  ];
  return all.filter((n) => n.token !== token);
}
