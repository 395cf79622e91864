/**
 * Every `flis` subcommand, in the order `flis --help` lists them. A command's
 * module is loaded only when it runs: `flis run` alone pulls in Playwright,
 * Fastify and the reporters, which `flis --help` or `flis replay` never need.
 */
import type { Command } from '../command.ts';

export interface CommandEntry {
  name: string;
  /** One line for `flis --help`. */
  summary: string;
  load(): Promise<Command>;
}

export const commands: CommandEntry[] = [
  {
    name: 'run',
    summary: 'Run the conformance suites against a deployment (default: the embedded mock)',
    load: async () => (await import('./run.ts')).runCommand,
  },
  {
    name: 'certify',
    summary: "Certify a partner: the suites on the sandbox plus the partner's recorded client traffic, one certificate",
    load: async () => (await import('./certify.ts')).certifyCommand,
  },
  {
    name: 'report',
    summary: 'Build the self-contained Allure HTML report of a run, offline',
    load: async () => (await import('./report.ts')).reportCommand,
  },
  {
    name: 'show-report',
    summary: "Serve a run's report folder on loopback (the Playwright HTML report needs HTTP)",
    load: async () => (await import('./show-report.ts')).showReportCommand,
  },
  {
    name: 'merge',
    summary: 'Merge the report folders of sharded runs into one report and one certificate',
    load: async () => (await import('./merge.ts')).mergeCommand,
  },
  {
    name: 'diff',
    summary: 'Send the same generated requests to two deployments and report where they differ',
    load: async () => (await import('./diff.ts')).diffCommand,
  },
  {
    name: 'regress',
    summary: "Before a release: replay partners' recorded traffic against a candidate, a verdict each",
    load: async () => (await import('./regress.ts')).regressCommand,
  },
  {
    name: 'contract',
    summary: 'Classify the changes between two OpenAPI versions, and name the partners a breaking one touches',
    load: async () => (await import('./contract.ts')).contractCommand,
  },
  {
    name: 'can-i-release',
    summary: 'The release gate: may this candidate ship? Every active partner replayed against it, none broken',
    load: async () => (await import('./can-i-release.ts')).canIReleaseCommand,
  },
  {
    name: 'registry',
    summary: 'The certification registry: serve it, add partners, record releases, publish certificates, back it up',
    load: async () => (await import('./registry.ts')).registryCommand,
  },
  {
    name: 'mock',
    summary: 'Serve the embedded mock deployment on loopback until stopped',
    load: async () => (await import('./mock.ts')).mockCommand,
  },
  {
    name: 'webhooks',
    summary: 'Receive webhook deliveries, validate each against spec 6, print and record them',
    load: async () => (await import('./webhooks.ts')).webhooksCommand,
  },
  {
    name: 'record',
    summary: 'Record traffic to a deployment into a YAML cassette through a loopback proxy',
    load: async () => (await import('./record.ts')).recordCommand,
  },
  {
    name: 'replay',
    summary: 'Serve a recorded cassette offline on loopback',
    load: async () => (await import('./replay.ts')).replayCommand,
  },
  {
    name: 'cassette',
    summary: 'Lint, repair, diff, scan for secrets, and convert cassettes to and from HAR 1.2',
    load: async () => (await import('./cassette.ts')).cassetteCommand,
  },
];
