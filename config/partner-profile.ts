/**
 * What a partner says its client integrates: the operations its certificate
 * must find in the client's recorded traffic. Given on the command line
 * (`flis certify --require-operations listOffers,upsertOffer`) or in a partner
 * profile file (YAML or JSON, `operations: [listOffers, upsertOffer]`). Every
 * name is checked against the contract before anything runs.
 */
import { parse } from 'yaml';
import { closestName, ConfigError, UsageError } from '../errors/flis-error.ts';
import { readUserFile } from '../errors/user-file.ts';
import { operations } from '../specs/contract.ts';

export interface OperationClaim {
  operations: string[];
  /** Where the list came from, as the certificate names it. */
  source: string;
}

function checkedOperations(names: string[], where: string, fail: (message: string) => Error): string[] {
  const known = operations().map((o) => o.operationId);
  for (const name of names)
    if (!known.includes(name)) {
      const near = closestName(name, known);
      throw fail(
        `${where}: '${name}' is not an operation of the contract${near ? ` — did you mean '${near}'?` : ''} (operationIds of specs/openapi.yaml)`,
      );
    }
  return [...new Set(names)];
}

export function operationsFromList(raw: string): OperationClaim {
  const names = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!names.length) throw new UsageError('--require-operations needs a comma-separated list of operationIds');
  return {
    operations: checkedOperations(names, '--require-operations', (m) => new UsageError(m)),
    source: '--require-operations',
  };
}

/** A profile lists operationIds: far below this. */
const MAX_PROFILE_BYTES = 1024 * 1024;

export function operationsFromProfile(file: string): OperationClaim {
  const text = readUserFile(
    file,
    'the partner profile',
    MAX_PROFILE_BYTES,
    (why) => new UsageError(`--partner-profile ${file}: cannot read it (${why})`),
  ).toString('utf8');
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (e) {
    throw new ConfigError(`not YAML or JSON: ${(e as Error).message.split('\n')[0]}`, { file });
  }
  const list = (doc as { operations?: unknown } | null)?.operations;
  if (!Array.isArray(list) || !list.length || !list.every((x) => typeof x === 'string'))
    throw new ConfigError('expected `operations:` with a list of the operationIds the client integrates', { file });
  return {
    operations: checkedOperations(list as string[], file, (m) => new ConfigError(m)),
    source: `partner profile ${file}`,
  };
}
