/**
 * `flis contract diff OLD NEW [--cassettes DIR]`: every change between two
 * versions of the OpenAPI document, classified for clients, and with
 * partners' cassettes, which breaking change touches which partner.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from '../../errors/flis-error.ts';
import { diffContracts } from '../../regress/contract-diff.ts';
import { checkContractDiffFolder, contractDiffReport, writeContractDiff } from '../../regress/contract-report.ts';
import { OperationMatcher, partnerUsage, SharedSchemaLocator } from '../../regress/contract-usage.ts';
import { loadOpenApi } from '../../regress/openapi-document.ts';
import { oneLine } from '../../reporting/one-line.ts';
import { findPartners } from '../../regress/partners.ts';
import { namedValue, parseCommandArgs, reportDirOf } from '../args.ts';
import { registryPartners } from '../registry-regress.ts';
import { registryClient, registryOption } from '../registry-options.ts';
import { EXIT, type Command, type CommandIo } from '../command.ts';

const help = `Usage: flis contract diff OLD NEW [--cassettes DIR | --registry URL] [options]

Compare two versions of the OpenAPI document (YAML or JSON, a regular file of at most 32 MB; each is
validated first) and classify every change for clients, on the operation it is in, or once at the
shared schema (#/components/schemas/NAME) it is in, with every operation that schema reaches:
  breaking       an operation removed; a response field removed, made optional or of another type;
                 a response enum widened where one is pinned; a request field that became required
                 (or a new required one); a request enum narrowed; a parameter that became required,
                 was added as required, moved to another location or narrowed; the documented success
                 status changed
  compatible     an operation, an optional parameter or field, or a response field added; a request
                 enum widened; a response enum narrowed
  informational  a request field or parameter no longer described, an operation deprecated, the version

With --cassettes, each breaking change names the partners whose recorded traffic uses it (the
operation, a request field they send, a response field they receive), with the exchange (file:line)
that shows the use. One partner per cassette, as for 'flis regress'.

  --cassettes DIR          the partners' cassettes (*.yaml, *.yml)
  --registry URL           each active partner's latest cassette from the registry instead (the admin's
                           token in FLIS_REGISTRY_TOKEN)                             [env FLIS_REGISTRY_URL]
  --fail-on breaking       exit 1 on any breaking change, touching a partner or not
  --report-dir DIR         where contract-diff.md and contract-diff.json go (default reports/) [env FLIS_REPORT_DIR]

Exit codes: 0 no breaking change touches a partner, 1 one does (or any breaking change, with
--fail-on breaking), 2 usage error (a document that is not valid OpenAPI: the validator's first error).
Nothing is written until both reports are whole: SIGINT/SIGTERM end it at once.`;

const options = {
  cassettes: { type: 'string' },
  registry: { type: 'string' },
  'fail-on': { type: 'string' },
  'report-dir': { type: 'string' },
} as const;

/**
 * Above this size, a document is announced before it is read: a YAML parser takes seconds a megabyte (a long, silent
 * wait looks like a hang).
 */
const ANNOUNCED_BYTES = 1024 * 1024;

function announceLarge(file: string, io: CommandIo): void {
  let size = 0;
  try {
    size = statSync(file).size;
  } catch {
    return; // The reader names the problem.
  }
  if (size > ANNOUNCED_BYTES) io.err(`flis contract diff: reading ${file} (${(size / 1e6).toFixed(1)} MB)`);
}

async function diff(argv: string[], io: CommandIo): Promise<number> {
  const { values: v, positionals } = parseCommandArgs('contract', argv, options, true);
  if (v.help) {
    io.out(help);
    return EXIT.ok;
  }
  if (positionals.length !== 2)
    throw new UsageError(`two documents are required: flis contract diff OLD NEW; got ${positionals.length}`);
  const failOn = v['fail-on'];
  if (failOn !== undefined && failOn !== 'breaking')
    throw new UsageError(`--fail-on takes 'breaking'; got '${failOn}'`);
  const { reportDir, reportDirFrom } = reportDirOf(v['report-dir'], io.env);
  checkContractDiffFolder(reportDir, reportDirFrom);
  // Nothing is written until both reports are whole (each to a temporary file, then renamed): a signal may end the
  // command at once, even inside the parse of a large document, as it ends a lint.
  io.endOnSignal?.();
  const [oldFile, newFile] = positionals.map((p) => resolve(p)) as [string, string];
  // An empty --cassettes ("$UNSET") would judge no partner and exit 0: refused instead.
  const cassettes = namedValue('cassettes', v.cassettes);
  const registry = registryOption(v.registry, io.env);
  if (registry && cassettes) throw new UsageError('give either --cassettes DIR or --registry URL, not both');
  const fromRegistry = registry ? await registryPartners(registryClient(registry, io.env, '--registry')) : undefined;
  const partners = fromRegistry?.partners ?? (cassettes ? findPartners(resolve(cassettes), false) : undefined);
  for (const file of [oldFile, newFile]) announceLarge(file, io);
  const a = await loadOpenApi(oldFile);
  const b = await loadOpenApi(newFile);
  const changes = diffContracts(a, b);
  const matcher = new OperationMatcher(a.operations);
  const breaking = new Set(
    changes.filter((c) => c.class === 'breaking').flatMap((c) => c.operations ?? [c.operationId]),
  );
  const usage = partners
    ? {
        dir: registry ?? resolve(cassettes!),
        partners: partners.map((p) => {
          const u = partnerUsage(p, matcher, breaking);
          return fromRegistry ? { ...u, file: fromRegistry.source(u.file) } : u;
        }),
        locator: new SharedSchemaLocator(a),
      }
    : undefined;
  fromRegistry?.remove();
  const report = contractDiffReport(
    { file: oldFile, version: a.version },
    { file: newFile, version: b.version },
    changes,
    usage,
  );
  writeContractDiff(reportDir, report, reportDirFrom);
  // One line a change, whatever a partner's name or a document's field holds (oneLine).
  for (const c of report.changes.filter((x) => x.class === 'breaking'))
    io.out(
      oneLine(
        `BREAKING ${c.id} ${c.component !== undefined ? `schema ${c.component} (reaching ${c.operations?.length ?? 0} operation(s))` : c.operationId || '(document)'}${c.pointer ? ` ${c.pointer}` : ''}: ${c.message}${
          c.partners
            ? `; partners: ${c.partners.length ? c.partners.map((p) => `${p.partner} (${p.file}:${p.line})`).join(', ') : 'none'}`
            : ''
        }`,
      ),
    );
  const t = report.totals;
  const exit =
    (usage && t.partnersTouched > 0) || (failOn === 'breaking' && t.breaking > 0) ? EXIT.checkFailed : EXIT.ok;
  io.out(
    `flis contract diff: ${t.breaking} breaking, ${t.compatible} compatible, ${t.informational} informational${usage ? `; ${t.partnersTouched} of ${usage.partners.length} partner(s) touched` : ''}; ${reportDir}/contract-diff.md; exit ${exit}`,
  );
  return exit;
}

async function run(argv: string[], io: CommandIo): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === 'diff') return diff(rest, io);
  if (sub === undefined || sub === '--help' || sub === '-h') {
    io.out(help);
    return sub === undefined ? EXIT.usage : EXIT.ok;
  }
  throw new UsageError(`unknown subcommand '${sub}'; flis contract diff OLD NEW (see 'flis contract --help')`);
}

export const contractCommand: Command = {
  name: 'contract',
  help,
  run,
};
