/**
 * The environment contract between the runner and the suites (docs/architecture.md): the names of the variables
 * `flis run` gives Playwright and its workers, and what each means when it is not given. Both sides import it: the
 * runner (runner/suites-env.ts) builds the child's environment from these names alone, so a variable left over in
 * the user's shell (a stale FLIS_SHARD, FLIS_REPRODUCE) never reaches the suites; the suites and
 * playwright.config.ts read these names and no other, with these defaults (also under a bare `npx playwright test`).
 */

/** Every variable the suites and playwright.config.ts read. */
export const SUITE_ENV_NAMES = [
  'FLIS_BASE_URL',
  'FLIS_PUBLIC_BASE_URL',
  'FLIS_GATEWAY_NONCE',
  'FLIS_CONCURRENCY',
  'FLIS_CHECK_TIMEOUT_MS',
  'FLIS_TOKEN',
  'FLIS_ALLOW_WRITES',
  'FLIS_WRITES_SKIPPED_REASON',
  'FLIS_RUN_ID',
  'FLIS_SEED',
  'FLIS_RUNS',
  'FLIS_EXPLORE',
  'FLIS_PATH',
  'FLIS_VISIBILITY_TIMEOUT_MS',
  'FLIS_WORLD_MODEL',
  'FLIS_DEPLOYMENT',
  'FLIS_RUN_STARTED_AT',
  'FLIS_OBSERVATIONS_DIR',
  'FLIS_SHARD',
  'FLIS_REPORTS',
  'FLIS_REPRODUCE',
  'FLIS_WORKERS',
  'FLIS_REPORT_DIR',
  'FLIS_PROGRESS',
] as const;

export type SuiteEnvName = (typeof SUITE_ENV_NAMES)[number];

/**
 * The ones the runner takes from its own environment as the user set it, rather than from the run's options: the
 * world-model switch, which only the bench sets (docs/configuration.md).
 */
export const FROM_USER_ENV = ['FLIS_WORLD_MODEL'] as const satisfies readonly SuiteEnvName[];

/** The suites' view of the environment: only the contract's names can be read (the process's environment is one). */
export type SuiteEnv = { readonly [K in SuiteEnvName]?: string | undefined };

/** FLIS_VISIBILITY_TIMEOUT_MS: how long a poll waits for an asynchronous write to show (--visibility-timeout). */
export const DEFAULT_VISIBILITY_TIMEOUT_MS = 10_000;
/** FLIS_CONCURRENCY: requests one worker may have in flight within a check (a near deployment's). */
export const DEFAULT_CONCURRENCY = 6;
/** FLIS_CHECK_TIMEOUT_MS: Playwright's test timeout (--check-timeout), restarted by each answer (check-timeout.ts). */
export const DEFAULT_CHECK_TIMEOUT_MS = 120_000;
/** FLIS_WORKERS: Playwright workers (a near deployment's, when --workers is not given). */
export const DEFAULT_WORKERS = 2;
/** FLIS_SEED under a bare `npx playwright test`; `flis run` draws one and prints it. */
export const DEFAULT_SEED = 42;
/** FLIS_RUNS: runs of each fast-check property (--runs). */
export const DEFAULT_RUNS = 20;

/** FLIS_EXPLORE: how many times longer and more numerous the world-model explorer's sequences are (--explore). */
export const DEFAULT_EXPLORE = 1;

/** Each default by its variable, as docs/architecture.md's table shows it. */
export const SUITE_ENV_DEFAULTS: Partial<Record<SuiteEnvName, number>> = {
  FLIS_VISIBILITY_TIMEOUT_MS: DEFAULT_VISIBILITY_TIMEOUT_MS,
  FLIS_CONCURRENCY: DEFAULT_CONCURRENCY,
  FLIS_CHECK_TIMEOUT_MS: DEFAULT_CHECK_TIMEOUT_MS,
  FLIS_WORKERS: DEFAULT_WORKERS,
  FLIS_SEED: DEFAULT_SEED,
  FLIS_RUNS: DEFAULT_RUNS,
  FLIS_EXPLORE: DEFAULT_EXPLORE,
};
