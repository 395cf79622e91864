/**
 * What a bearer token may hold. It is sent in an Authorization header, whose value ends at a line break (RFC 9110
 * 5.5) and whose credentials are one word (RFC 6750 2.1): a line break, any other control character, a space or a
 * character outside ASCII cannot be in it. A token that holds one is refused before anything is sent, in words that
 * never show the token (undici would refuse every request carrying it, and a run would wait on checks that cannot
 * start).
 */
import { ConfigError, type FlisErrorCode } from './flis-error.ts';

/** What in `token` cannot go in the header, in a few words; undefined when nothing. */
export function tokenProblem(token: string): string | undefined {
  for (const ch of token) {
    const c = ch.codePointAt(0) ?? 0;
    if (c === 0x0a || c === 0x0d) return 'a line break';
    if (c < 0x20 || c === 0x7f) return `a control character (U+${c.toString(16).toUpperCase().padStart(4, '0')})`;
    if (c === 0x20) return 'a space';
    if (c > 0x7e) return 'a character outside ASCII';
  }
  return undefined;
}

/** The token as given, or a ConfigError naming `source` (a variable, a flag) and what is wrong, never the token. */
export function checkToken(token: string, source: string, code: FlisErrorCode = 'FLIS_ERR_CONFIG'): string {
  const problem = tokenProblem(token);
  if (problem)
    throw new ConfigError(
      `${source} holds ${problem}, which cannot go in an Authorization header; give the token alone (no line break, quotes or spaces)`,
      {},
      code,
    );
  return token;
}
