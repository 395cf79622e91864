/**
 * A failed check as a typed record (Schemathesis-style): which check and clause,
 * which operation, a JSON pointer to the bad value, what was sent and received
 * (token redacted), the fast-check seed and path when a property failed, and a
 * curl command that reproduces it. Thrown by checks; the check-test wrapper
 * attaches it to the Playwright test as `flis-failure` (JSON).
 */
import { toCurl } from './curl.ts';
import type { Exchange } from './exchange.ts';
import { formatReplayPath } from './replay-path.ts';
import { redactHeaders, redactText } from './redact.ts';

/**
 * How much a failure weighs (docs/writing-a-check.md, docs/checks-and-severity.md): `contract` when a
 * sentence of the spec binds the server (or the server answered 5xx);
 * `advisory` for hygiene beyond the spec (wrong body type accepted, token echoed
 * in an error body, ...). Advisory failures are reported but do not fail a run
 * unless it is strict.
 */
export type Severity = 'contract' | 'advisory';

export interface PropertyFailure {
  /** Which property of the run failed (core/replay-path.ts): with the path, what `--path` replays. */
  id?: string;
  seed: number;
  path: string;
  counterexample: string;
  numRuns: number;
}

export interface FailureRecord {
  check: string;
  clause: string;
  operationId?: string;
  method?: string;
  path?: string;
  message: string;
  /** The weight of this failure; wins over the check's own severity annotation. */
  severity?: Severity;
  /** JSON pointer to the bad value in the response (or request) body. */
  pointer?: string;
  schemaPath?: string;
  exchanges: Exchange[];
  curl: string[];
  property?: PropertyFailure;
  /** The `flis run` command line that reproduces the whole run (embedded mock only: env FLIS_REPRODUCE). */
  rerun?: string;
}

export interface FailureDetails {
  operationId?: string | undefined;
  method?: string | undefined;
  path?: string | undefined;
  pointer?: string | undefined;
  schemaPath?: string | undefined;
  /** The exchanges that show the failure, most relevant last. */
  exchanges?: Exchange[];
  property?: PropertyFailure;
  severity?: Severity | undefined;
}

const BODY_LIMIT = 2_000;

function clip(text: string): string {
  return text.length > BODY_LIMIT ? `${text.slice(0, BODY_LIMIT)}… (${text.length} chars)` : text;
}

function redactExchange(x: Exchange, secrets: readonly string[]): Exchange {
  return {
    ...x,
    request: {
      ...x.request,
      url: redactText(x.request.url, secrets),
      headers: redactHeaders(x.request.headers, secrets),
      ...(x.request.body !== undefined ? { body: redactText(x.request.body, secrets) } : {}),
    },
    response: {
      ...x.response,
      headers: redactHeaders(x.response.headers, secrets),
      text: redactText(x.response.text, secrets),
      body: JSON.parse(redactText(JSON.stringify(x.response.body ?? null), secrets)) as unknown,
    },
  };
}

/** A GET retried after a 502/503/504 shows both attempts, the first one first (core/client.ts). */
function withRetries(exchanges: readonly Exchange[]): Exchange[] {
  return exchanges.flatMap(({ retryOf, ...x }) =>
    retryOf ? [{ ...retryOf, note: 'first attempt; asked once more after a short pause' }, x] : [x],
  );
}

function describeExchange(x: Exchange): string {
  const reqHeaders = Object.entries(x.request.headers).map(([k, v]) => `            ${k}: ${v}`);
  const lines = [
    ...(x.note ? [`  (${x.note})`] : []),
    `  sent:     ${x.request.method.toUpperCase()} ${x.request.url}`,
    ...reqHeaders,
  ];
  if (x.request.body !== undefined) lines.push(`            ${clip(x.request.body)}`);
  lines.push(
    `  received: ${x.response.status} ${x.response.headers['content-type'] ?? '(no content-type)'} in ${x.response.durationMs} ms`,
  );
  if (x.response.text) lines.push(`            ${clip(x.response.text)}`);
  return lines.join('\n');
}

/** ` --path ID:PATH` replaying the failing property's own case, when the failure names its property. */
function replayFlag(p: PropertyFailure | undefined): string {
  return p?.id && p.path ? ` --path ${formatReplayPath({ property: p.id, path: p.path })}` : '';
}

export function formatFailure(r: FailureRecord): string {
  const op = r.operationId ? ` — ${r.operationId} (${r.method?.toUpperCase()} ${r.path})` : '';
  const weight = r.severity === 'advisory' ? ' (advisory)' : '';
  const lines = [`[${r.check}]${weight} ${r.clause}${op}`, `  ${r.message}`];
  if (r.pointer !== undefined)
    lines.push(
      `  at JSON pointer: ${r.pointer === '' ? '(root)' : r.pointer}${r.schemaPath ? `  (schema ${r.schemaPath})` : ''}`,
    );
  if (r.property) {
    lines.push(
      `  property failed after ${r.property.numRuns} run(s); seed ${r.property.seed}, path "${r.property.path}"`,
    );
    lines.push(`  shrunk counterexample: ${clip(r.property.counterexample)}`);
    lines.push(`  rerun: npx flis run --seed ${r.property.seed}${replayFlag(r.property)}`);
  }
  for (const x of r.exchanges) lines.push(describeExchange(x));
  // Against the embedded mock, the port a curl names is gone once the run ends: the rerun line reproduces it.
  if (r.rerun) lines.push(`  rerun the run: ${r.rerun}`);
  else for (const c of r.curl) lines.push(`  reproduce: ${c}`);
  return lines.join('\n');
}

/**
 * An error as the terminal shows it: its message, without the stack frames of flis's own code (`dist/…` in an
 * install). A failure is its record (request, response, pointer, rerun line), not where in the tool it was noticed.
 */
export function withoutFrames<E extends Error>(error: E): E {
  error.stack = `${error.name}: ${error.message}`;
  return error;
}

export class CheckFailure extends Error {
  readonly record: FailureRecord;
  constructor(check: string, clause: string, message: string, details: FailureDetails, secrets: readonly string[]) {
    const exchanges = withRetries(details.exchanges ?? []).map((x) => redactExchange(x, secrets));
    const record: FailureRecord = {
      check,
      clause,
      message: redactText(message, secrets),
      ...(details.severity ? { severity: details.severity } : {}),
      exchanges,
      curl: exchanges.map((x) => toCurl(x.request)),
      ...(details.operationId ? { operationId: details.operationId } : {}),
      ...(details.method ? { method: details.method } : {}),
      ...(details.path ? { path: details.path } : {}),
      ...(details.pointer !== undefined ? { pointer: details.pointer } : {}),
      ...(details.schemaPath ? { schemaPath: details.schemaPath } : {}),
      ...(details.property
        ? { property: { ...details.property, counterexample: redactText(details.property.counterexample, secrets) } }
        : {}),
      // Set by the runner for a run against the embedded mock (runner/run-suites.ts); it holds no secret.
      ...(process.env.FLIS_REPRODUCE ? { rerun: `${process.env.FLIS_REPRODUCE}${replayFlag(details.property)}` } : {}),
    };
    super(formatFailure(record));
    this.name = 'CheckFailure';
    this.record = record;
  }
}
