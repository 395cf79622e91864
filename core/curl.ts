/**
 * A curl command that reproduces one request. The token is never written out:
 * the command reads it from $FLIS_TOKEN, as the suite did.
 */
import type { SentRequest } from './exchange.ts';

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export function toCurl(req: SentRequest): string {
  const parts = ['curl -sS -i', '-X', req.method.toUpperCase(), shellQuote(req.url)];
  for (const [name, value] of Object.entries(req.headers)) {
    if (name.toLowerCase() === 'authorization') {
      // Double quotes so the shell expands the variable; a wrong-token probe keeps its literal value.
      parts.push(
        '-H',
        /\[REDACTED\]/.test(value) ? '"Authorization: Bearer $FLIS_TOKEN"' : shellQuote(`${name}: ${value}`),
      );
    } else {
      parts.push('-H', shellQuote(`${name}: ${value}`));
    }
  }
  if (req.body !== undefined) parts.push('--data-raw', shellQuote(req.body));
  return parts.join(' ');
}
