/**
 * Which contract operation a request belongs to, with the path templates
 * compiled once: specs/contract.ts `matchOperation` compiles every template on
 * every call, too slow for a proxy on the hot path. Same rule as there: a
 * literal segment beats a template segment.
 */
import { operations, type Operation } from '../specs/contract.ts';

interface Compiled {
  op: Operation;
  regex: RegExp;
  literals: number;
}

let byMethod: Map<string, Compiled[]> | undefined;

function compile(): Map<string, Compiled[]> {
  const out = new Map<string, Compiled[]>();
  for (const op of operations()) {
    const body = op.path.split('/').map((s) => (s.startsWith('{') ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/');
    const literals = op.path.split('/').filter((s) => s && !s.startsWith('{')).length;
    const list = out.get(op.method) ?? [];
    list.push({ op, regex: new RegExp(`^${body}/?$`), literals });
    out.set(op.method, list);
  }
  for (const list of out.values()) list.sort((a, b) => b.literals - a.literals);
  return out;
}

export function operationFor(method: string, path: string): Operation | undefined {
  byMethod ??= compile();
  return byMethod.get(method.toLowerCase())?.find((c) => c.regex.test(path))?.op;
}
