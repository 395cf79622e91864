/**
 * The one file that touches Stryker: its instrumenter (@stryker-mutator/instrumenter, installed into
 * tools/mutation/node_modules by bootstrap.mjs) reads the files to mutate and writes them back with every mutant
 * placed behind a switch, `__STRYKER_ACTIVE_MUTANT__` choosing which one runs. It honours the `// Stryker disable`
 * comments, whose mutants come back Ignored: the freedoms. Loaded by name at run time, so the project's typecheck
 * on Node 20 never needs the package.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Mutant } from './mutant.ts';

interface StrykerPosition {
  line: number;
  column: number;
}

interface StrykerMutant {
  id: string;
  fileName: string;
  mutatorName: string;
  replacement: string;
  location: { start: StrykerPosition; end: StrykerPosition };
  status?: string;
  statusReason?: string;
}

interface StrykerInstrumenter {
  instrument(
    files: { name: string; content: string; mutate: true }[],
    options: { plugins: null; excludedMutations: string[]; ignorers: Ignorer[] },
  ): Promise<{ files: readonly { name: string; content: string }[]; mutants: readonly StrykerMutant[] }>;
}

/** Babel's node path, as much of it as the ignorer reads. */
interface NodePath {
  node: { type: string };
  parent?: { type: string; key?: { type: string; name?: string; value?: string }; value?: unknown } | null;
}

interface Ignorer {
  shouldIgnore(path: NodePath): string | undefined;
}

/**
 * Left out of the mutants, as no behaviour at all: the labels of a route in a route table, its `operationId` and its
 * `deprecated` flag. They label the route for the project's own tests (tests/mock/routes.test.ts holds the table to
 * specs/openapi.yaml) and for the fault layer; the mock never answers with them, and serves a deprecated operation as
 * any other (spec 9 rule 3).
 */
export const LABEL = 'not behaviour: a route label (operationId, deprecated)';
const LABELS = new Set(['operationId', 'deprecated']);

const routeLabels: Ignorer = {
  shouldIgnore({ node, parent }) {
    const key = parent?.type === 'ObjectProperty' && parent.value === node ? parent.key : undefined;
    const name = key?.type === 'Identifier' ? key.name : key?.value;
    return name !== undefined && LABELS.has(name) && /^(?:String|Boolean)Literal$/.test(node.type) ? LABEL : undefined;
  },
};

export interface Instrumented {
  /** repo-relative path → instrumented source. */
  files: Map<string, string>;
  mutants: Mutant[];
  /** repo-relative path → original source. */
  sources: Map<string, string>;
  /** What Stryker warned about (an unused directive). */
  warnings: string[];
  /** How many mutants were left out as route labels (LABEL); `mutants` holds them too, as freedoms. */
  labels: number;
}

const quiet = () => false;

function logger(warnings: string[]) {
  const none = () => undefined;
  return {
    isTraceEnabled: quiet,
    isDebugEnabled: quiet,
    isInfoEnabled: quiet,
    isWarnEnabled: () => true,
    isErrorEnabled: () => true,
    isFatalEnabled: () => true,
    trace: none,
    debug: none,
    info: none,
    warn: (message: string) => warnings.push(String(message)),
    error: (message: string) => warnings.push(String(message)),
    fatal: (message: string) => warnings.push(String(message)),
  };
}

/** Stryker's positions: lines from 0, columns from 0. Ours: from 1. */
function position(p: StrykerPosition): { line: number; column: number } {
  return { line: p.line + 1, column: p.column + 1 };
}

/** Instruments `files` (repo-relative) of the checkout at `root`, all in one pass: mutant ids are unique across them. */
export async function instrument(root: string, files: readonly string[]): Promise<Instrumented> {
  const specifier = '@stryker-mutator/instrumenter';
  const { Instrumenter } = (await import(specifier)) as {
    Instrumenter: new (log: ReturnType<typeof logger>) => StrykerInstrumenter;
  };
  const warnings: string[] = [];
  const sources = new Map(files.map((f) => [f, readFileSync(join(root, f), 'utf8')]));
  const byName = new Map(files.map((f) => [join(root, f), f]));
  const result = await new Instrumenter(logger(warnings)).instrument(
    files.map((f) => ({ name: join(root, f), content: sources.get(f) ?? '', mutate: true })),
    { plugins: null, excludedMutations: [], ignorers: [routeLabels] },
  );
  const relative = (name: string) => byName.get(name) ?? name;
  return {
    files: new Map(result.files.map((f) => [relative(f.name), f.content])),
    mutants: result.mutants.map((m) => ({
      id: m.id,
      file: relative(m.fileName),
      mutator: m.mutatorName,
      replacement: m.replacement,
      start: position(m.location.start),
      end: position(m.location.end),
      freedom: m.status === 'Ignored' ? (m.statusReason ?? 'Ignored using a comment') : undefined,
    })),
    labels: result.mutants.filter((m) => m.statusReason === LABEL).length,
    sources,
    warnings,
  };
}
