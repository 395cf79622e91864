// Loaded into the clean run's flis process (NODE_OPTIONS=--import): when it exits, the ids of the mutants the run's
// requests reached (Stryker's instrumented code counts them in globalThis.__stryker__) go to a file of their own.
// Playwright's workers load it too; they hold no mock, so they write nothing.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env.FLIS_MUTATION_COVERAGE_DIR;
process.on('exit', () => {
  const coverage = globalThis.__stryker__?.mutantCoverage;
  if (!dir || !coverage) return;
  const reached = [
    ...Object.keys(coverage.static ?? {}),
    ...Object.values(coverage.perTest ?? {}).flatMap(Object.keys),
  ];
  writeFileSync(join(dir, `coverage-${process.pid}.json`), JSON.stringify([...new Set(reached)]));
});
