/**
 * Does a partner's client survive what the contract allows? `flis certify
 * --client-command CMD` runs the partner's own command once against each
 * conformant variant of the embedded mock, through the recorder (cli/robustness.ts);
 * this file reads what each run recorded and says, per variant, whether the
 * command succeeded, whether its traffic stayed valid, and what it did that
 * the plain mock run did not. A variant is a freedom the contract gives the
 * server, so each row names the contract sentence that allows it.
 */
import { basename } from 'node:path';
import { forEachCassetteExchange } from './cassettes.ts';

/** What a variant of the embedded mock exercises, and the sentences of the spec that allow it. */
export interface VariantFreedom {
  exercises: string;
  allowedBy: string;
}

/** One row per conformant variant that `flis mock --help` lists (mock/variant.ts variantPresets). */
export const VARIANT_FREEDOMS: Readonly<Record<string, VariantFreedom>> = {
  default: {
    exercises: 'the plain mock: 200 answers, prefixed ids, writes shown at once (the run the others are compared with)',
    allowedBy: 'spec 4: the operations and shapes as documented',
  },
  different: {
    exercises: '201 and 202 instead of 200, uuid ids, undocumented extra fields in every answer, lenient input',
    allowedBy:
      'spec 4.3: "Success status codes of all endpoints: not shown."; spec 2: "All identifiers are strings."; the schemas do not forbid extra fields',
  },
  throttled: {
    exercises:
      '429 Too Many Requests with Retry-After once a quota of 20 requests is spent, until it comes back a second later',
    allowedBy: 'spec 8: "Rate limits, body size limits, maximum bulk size and maximum page size: not shown."',
  },
  'open-choices': {
    exercises:
      '202 answers, numeric ids, offers windowed on their write time, bounds that exclude themselves, pages from 0, 20 invoices when no limit is asked',
    allowedBy:
      'spec 4.3: "Which timestamp the start and end parameters of GET /offers filter on: not shown."; spec 8: maximum page size not shown; spec 2: identifiers are strings',
  },
  eventual: {
    exercises:
      "writes that take 400 ms to show, 202 answers, a batch status that says 'state: done', cancelled offers left out of listings",
    allowedBy:
      'spec 1: "Offers are written asynchronously. A write returns a batchId, and the integration status of a batch … is read through the bookings status endpoints."',
  },
  'offer-versions': {
    exercises:
      '400 for GET /offers and GET /billingGroups without start and end and for GET /invoices without createdSince, 201 answers, every version of an offer in GET /offers/{offerId}, ids such as "invoice 100001+ä&x=%/#?:" that a URL must percent-encode',
    allowedBy:
      'spec 4.1 and 4.2 list those query parameters and say nothing of whether they are required; spec 4.1: GET /offers/{offerId} answers "array of Offer"; spec 2: "All identifiers are strings."',
  },
  'paged-lists': {
    exercises:
      'billing groups latest first and ten an answer, with a Link header to the next page; invoices by update time and never more than twelve an answer; the groups inside an invoice with their id under billingGroupId; single invoices with milliseconds in their timestamps',
    allowedBy:
      'spec 8: "Rate limits, body size limits, maximum bulk size and maximum page size: not shown."; spec 4.2 shows no order; spec 2.7: fields inside the object arrays of invoices "not shown"',
  },
};

export interface RobustnessRow {
  variant: string;
  exercises: string;
  allowedBy: string;
  /** The command's exit code (null when it was stopped at the time limit). */
  exitCode: number | null;
  /** Exchanges the command sent through the recorder. */
  exchanges: number;
  /** Violations of rules that bind the client (the request side of the recorder's contract check). */
  requestViolations: number;
  /** What the client did here that the plain mock run did not. */
  differences: string[];
  /** Survived: exit 0 and valid traffic. */
  passed: boolean;
  /** Why not, in a few words. */
  verdict: string;
  /** A row it did not survive: where its client gave up (whereItGaveUp). */
  gaveUp?: GaveUp | undefined;
}

/** Where a client gave up on a variant: what the partner reads to find the line of its client to fix. */
export interface GaveUp {
  /** The first exchange whose answer differed from the plain run's, with its line in the variant's cassette. */
  firstDifference?: string | undefined;
  /** The last request the client sent, and what it was answered. */
  lastRequest?: string | undefined;
  /** The line of the client's own output that says why (the last that reads like an error, else its last line). */
  clientSaid?: string | undefined;
}

/** One exchange as the client met it: its line in the cassette, the request, the answer's status. */
export interface AnswerFact {
  line: number;
  request: string;
  status: number;
}

/** The exchanges kept per run for comparing one with the plain run: a client's run is a handful, not thousands. */
const KEPT_ANSWERS = 10_000;

export interface TrafficFacts {
  exchanges: number;
  requestViolations: number;
  statuses: Record<string, number>;
  /**
   * Answers of 429. Whether a client waited out Retry-After cannot be read from a cassette: parallel first attempts
   * and early retries of the same operation look alike; exchanges beyond the plain run's say how many were sent again.
   */
  throttled: number;
  /** GETs answered 404 for a record the client itself had written just before. */
  readsBeforeShown: number;
  /** Requests whose path holds a character an id must have percent-encoded (space, `#`, `?`, a raw `%`). */
  unencodedIds: number;
  /** The exchanges in the order the client met them (the first KEPT_ANSWERS), and the cassette they are in. */
  answers: AnswerFact[];
  cassette?: string | undefined;
}

const RAW_IN_PATH = /[\s"<>#?{}|\\^`]|%(?![0-9A-Fa-f]{2})/;

/** What one variant's recorded run shows about the client. */
export function trafficFacts(cassette: string): TrafficFacts {
  const facts: TrafficFacts = {
    exchanges: 0,
    requestViolations: 0,
    statuses: {},
    throttled: 0,
    readsBeforeShown: 0,
    unencodedIds: 0,
    answers: [],
    cassette,
  };
  const written = new Set<string>();
  forEachCassetteExchange(cassette, (x) => {
    facts.exchanges += 1;
    if (facts.answers.length < KEPT_ANSWERS)
      facts.answers.push({ line: x.line, request: `${x.request.method} ${x.request.path}`, status: x.response.status });
    facts.requestViolations += x.violations.filter((v) => v.direction === 'request').length;
    const status = x.response.status;
    facts.statuses[status] = (facts.statuses[status] ?? 0) + 1;
    if (status === 429) facts.throttled += 1;
    if (RAW_IN_PATH.test(x.request.path)) facts.unencodedIds += 1;
    if (x.request.method === 'GET' && status === 404 && written.has(x.request.path)) facts.readsBeforeShown += 1;
    if (['PUT', 'POST'].includes(x.request.method) && status >= 200 && status <= 299) written.add(x.request.path);
  });
  return facts;
}

function statusesBeyond(facts: TrafficFacts, plain: TrafficFacts | undefined): number[] {
  return Object.keys(facts.statuses)
    .map(Number)
    .filter((s) => s !== 429 && !(plain && String(s) in plain.statuses))
    .sort((a, b) => a - b);
}

/** What the client did here and not against the plain mock. */
export function differencesFrom(variant: string, facts: TrafficFacts, plain: TrafficFacts | undefined): string[] {
  const out: string[] = [];
  const beyond = statusesBeyond(facts, plain);
  if (plain && beyond.length) out.push(`answers the plain run never had: ${beyond.join(', ')}`);
  if (facts.throttled) out.push(`${facts.throttled} answered 429 with Retry-After`);
  else if (variant === 'throttled')
    out.push(`throttling never met: no answer was 429 (${facts.exchanges} requests), so this row says nothing of it`);
  if (facts.readsBeforeShown > (plain?.readsBeforeShown ?? 0))
    out.push(`${facts.readsBeforeShown} read(s) of a record it wrote, sent before the write had shown (404)`);
  if (facts.unencodedIds > (plain?.unencodedIds ?? 0))
    out.push(`${facts.unencodedIds} request(s) with an id not percent-encoded in the path`);
  if (plain && facts.exchanges !== plain.exchanges)
    out.push(
      `${facts.exchanges} exchange${facts.exchanges === 1 ? '' : 's'} where the plain run had ${plain.exchanges}`,
    );
  return out;
}

const SAYS_WHY =
  /error|fail|exception|assert|expected|unexpected|invalid|cannot|can't|refused|denied|timed? ?out|\b[45]\d\d\b/i;

/** The line of a client's output that says why it stopped: the last that reads like an error, else the last one. */
export function clientSaid(output: string, secrets: readonly string[] = []): string | undefined {
  const lines = output
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  const line = [...lines].reverse().find((l) => SAYS_WHY.test(l)) ?? lines.at(-1);
  if (line === undefined) return undefined;
  let said = line.length > 300 ? `${line.slice(0, 300)}…` : line;
  for (const secret of secrets) if (secret) said = said.split(secret).join('[REDACTED]');
  return said;
}

/**
 * Where the client gave up on a variant: the first exchange whose answer's status differed from the plain run's
 * exchange at the same place (ids differ between variants by design, statuses do not unless the variant chose
 * another), the last request it sent, and what its output said.
 */
export function whereItGaveUp(
  facts: TrafficFacts,
  plain: TrafficFacts | undefined,
  output: string | undefined,
  secrets: readonly string[] = [],
): GaveUp {
  const where = (a: AnswerFact) => `${facts.cassette ? `${basename(facts.cassette)}:${a.line}` : `line ${a.line}`}`;
  let firstDifference: string | undefined;
  if (plain) {
    const i = facts.answers.findIndex((a, n) => plain.answers[n]?.status !== a.status);
    const a = facts.answers[i];
    if (a) {
      const p = plain.answers[i];
      firstDifference = `exchange ${i + 1} (${where(a)}): ${a.request} answered ${a.status}${p ? `, where the plain run's exchange ${i + 1} (${p.request}) answered ${p.status}` : ', and the plain run had no such exchange'}`;
    } else if (facts.answers.length < plain.answers.length)
      firstDifference = `no answer differed from the plain run's; the client stopped after ${facts.answers.length} exchange(s), where the plain run went on to ${plain.answers.length}`;
  }
  const last = facts.answers.at(-1);
  return {
    firstDifference,
    lastRequest: last
      ? `${last.request} (${where(last)}), answered ${last.status}`
      : 'none: the client sent no request',
    clientSaid: output === undefined ? undefined : (clientSaid(output, secrets) ?? '(the client printed nothing)'),
  };
}

/** The lines a row it did not survive adds, for the terminal and the certificate. */
export function gaveUpLines(g: GaveUp): string[] {
  return [
    ...(g.firstDifference ? [`first answer that differed: ${g.firstDifference}`] : []),
    ...(g.lastRequest ? [`last request: ${g.lastRequest}`] : []),
    ...(g.clientSaid ? [`the client said: ${g.clientSaid}`] : []),
  ];
}

export function robustnessRow(
  variant: string,
  exitCode: number | null,
  facts: TrafficFacts,
  plain: TrafficFacts | undefined,
  client: { output?: string | undefined; secrets?: readonly string[] } = {},
): RobustnessRow {
  const freedom = VARIANT_FREEDOMS[variant] ?? { exercises: variant, allowedBy: '(not described)' };
  const why = [
    ...(exitCode === 0
      ? []
      : [exitCode === null ? 'the command did not finish in time' : `the command exited ${exitCode}`]),
    ...(facts.requestViolations ? [`${facts.requestViolations} request violation(s)`] : []),
  ];
  return {
    variant,
    ...freedom,
    exitCode,
    exchanges: facts.exchanges,
    requestViolations: facts.requestViolations,
    differences: differencesFrom(variant, facts, plain),
    passed: why.length === 0,
    verdict: why.length ? why.join('; ') : 'survived',
    gaveUp: why.length ? whereItGaveUp(facts, plain, client.output, client.secrets) : undefined,
  };
}

/** "did not survive: different, throttled" for the client's verdict. */
export function robustnessReason(rows: readonly RobustnessRow[]): string | undefined {
  const failed = rows.filter((r) => !r.passed).map((r) => r.variant);
  return failed.length
    ? `did not survive ${failed.length} of the ${rows.length} conformant variants of the embedded mock: ${failed.join(', ')}`
    : undefined;
}
