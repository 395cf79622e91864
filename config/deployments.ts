/**
 * The named deployments of specs/deployments.yaml, and the resolution of what
 * the user asked for (a name, an ad-hoc URL) into a target: base URL, token,
 * and whether writes are allowed. Secrets come only from the environment.
 */
import { readFileSync } from 'node:fs';
import { LineCounter, parseDocument } from 'yaml';
import { ConfigError } from '../errors/flis-error.ts';
import { checkToken } from '../errors/token-value.ts';
import { SPEC_DIR } from '../specs/contract.ts';
import { join } from 'node:path';

export const DEPLOYMENTS_FILE = join(SPEC_DIR, 'deployments.yaml');

export interface Deployment {
  name: string;
  description: string;
  embedded: boolean;
  liveData: boolean;
  baseUrlEnv?: string | undefined;
  tokenEnv?: string | undefined;
}

export interface DeploymentsFile {
  default: string;
  deployments: Deployment[];
}

type Where = { file: string; line?: number | undefined };

function lineOf(
  doc: ReturnType<typeof parseDocument>,
  counter: LineCounter,
  path: (string | number)[],
): number | undefined {
  const node = doc.getIn(path, true) as { range?: [number, number, number] } | undefined;
  return node?.range ? counter.linePos(node.range[0]).line : undefined;
}

/** Reads and checks the deployments file; a mistake names the file, the line and what was expected. */
export function loadDeployments(file = DEPLOYMENTS_FILE): DeploymentsFile {
  const counter = new LineCounter();
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ConfigError(`cannot read the deployments file: ${(e as Error).message}`, { file });
  }
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: true });
  const firstError = doc.errors[0];
  if (firstError)
    throw new ConfigError(`not valid YAML: ${firstError.message}`, { file, line: firstError.linePos?.[0]?.line });
  const root = doc.toJS() as Record<string, unknown> | null;
  const where = (path: (string | number)[]): Where => ({ file, line: lineOf(doc, counter, path) });
  if (!root || typeof root !== 'object')
    throw new ConfigError('expected a mapping with `format` and `deployments`', { file, line: 1 });
  if (root.format !== 1)
    throw new ConfigError(`expected \`format: 1\`, got ${JSON.stringify(root.format)}`, where(['format']));
  const entries = root.deployments;
  if (!entries || typeof entries !== 'object' || Array.isArray(entries))
    throw new ConfigError('expected `deployments` to be a mapping of name to deployment', where(['deployments']));
  const deployments = Object.entries(entries as Record<string, Record<string, unknown>>).map(([name, d]) =>
    toDeployment(name, d, where),
  );
  const def = typeof root.default === 'string' ? root.default : 'embedded';
  if (!deployments.some((d) => d.name === def))
    throw new ConfigError(`default deployment '${def}' is not defined`, where(['default']));
  return { default: def, deployments };
}

function toDeployment(name: string, d: Record<string, unknown>, where: (p: (string | number)[]) => Where): Deployment {
  if (!d || typeof d !== 'object')
    throw new ConfigError(`deployment '${name}' must be a mapping`, where(['deployments', name]));
  const embedded = d.embedded === true;
  for (const key of ['baseUrlEnv', 'tokenEnv'] as const) {
    if (!embedded && typeof d[key] !== 'string')
      throw new ConfigError(
        `deployment '${name}' needs \`${key}\`: the name of the environment variable that holds it`,
        where(['deployments', name]),
      );
  }
  if (typeof d.liveData !== 'boolean') {
    const at = 'liveData' in d ? ['deployments', name, 'liveData'] : ['deployments', name];
    throw new ConfigError(
      `deployment '${name}' needs \`liveData: true|false\`; got ${JSON.stringify(d.liveData)}`,
      where(at),
    );
  }
  return {
    name,
    description: typeof d.description === 'string' ? d.description : '',
    embedded,
    liveData: d.liveData,
    baseUrlEnv: typeof d.baseUrlEnv === 'string' ? d.baseUrlEnv : undefined,
    tokenEnv: typeof d.tokenEnv === 'string' ? d.tokenEnv : undefined,
  };
}

export interface ResolvedTarget {
  /** Deployment name, or "ad-hoc" for a --base-url. */
  name: string;
  embedded: boolean;
  liveData: boolean;
  /** Absent for the embedded mock until it is started. */
  baseUrl?: string;
  /** Absent for the embedded mock, which mints its own. */
  token?: string | undefined;
  allowWrites: boolean;
  /** Why writes are not allowed; empty when they are. */
  writesSkippedReason: string;
}

export interface TargetRequest {
  deployment?: string | undefined;
  baseUrl?: string | undefined;
  allowWrites?: boolean | undefined;
  /**
   * No token need be set: it is issued during the run (--token-url, --token-command: net/token-options.ts), or the
   * client in front sends its own (flis record).
   */
  tokenIssued?: boolean;
  /** The flag that gave the URL, as errors name it (default --base-url). */
  urlFlag?: string;
}

/** Every deployment path ends with the version prefix /apis/v0 (spec 9 rule 2). */
export function checkBaseUrl(raw: string, source: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${source} must be an http(s) URL ending in /apis/v0; got '${raw}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigError(`${source} must use http or https; got '${url.protocol}'`);
  if (url.search || url.hash) {
    // The suites add their own paths and queries to the base URL: a query or fragment on it would be cut off or mangled.
    const bare = `${url.origin}${url.pathname}`.replace(/\/+$/, '');
    throw new ConfigError(
      `${source} must not carry a query or fragment (the suites add their own); got '${raw}' — did you mean '${bare.endsWith('/apis/v0') ? bare : `${bare}/apis/v0`}'?`,
    );
  }
  const trimmed = url.toString().replace(/\/+$/, '');
  if (!trimmed.endsWith('/apis/v0'))
    throw new ConfigError(
      `${source} must end with the version prefix /apis/v0 (spec 9 rule 2); got '${raw}' — did you mean '${trimmed}/apis/v0'?`,
    );
  return trimmed;
}

export function resolveTarget(req: TargetRequest, env: NodeJS.ProcessEnv, file = DEPLOYMENTS_FILE): ResolvedTarget {
  const all = loadDeployments(file);
  if (req.baseUrl && req.deployment) throw new ConfigError('give either --deployment or --base-url, not both');
  if (req.baseUrl) {
    const token = env.FLIS_TOKEN;
    const flag = req.urlFlag ?? '--base-url';
    if (!token && !req.tokenIssued)
      throw new ConfigError(
        `a ${flag} target needs a bearer token in FLIS_TOKEN (or --token-url / --token-command)`,
        {},
        'FLIS_ERR_SECRET_MISSING',
      );
    return {
      name: 'ad-hoc',
      embedded: false,
      liveData: false,
      baseUrl: checkBaseUrl(req.baseUrl, flag),
      token: token ? checkToken(token, 'FLIS_TOKEN') : undefined,
      allowWrites: req.allowWrites === true,
      writesSkippedReason: req.allowWrites ? '' : 'an ad-hoc --base-url is read-only unless --allow-writes is given',
    };
  }
  const name = req.deployment ?? all.default;
  const d = all.deployments.find((x) => x.name === name);
  if (!d)
    throw new ConfigError(
      `unknown deployment '${name}'; known: ${all.deployments.map((x) => x.name).join(', ')} (see ${file})`,
      {},
      'FLIS_ERR_DEPLOYMENT',
    );
  if (d.embedded) return { name, embedded: true, liveData: false, allowWrites: true, writesSkippedReason: '' };
  const rawUrl = env[d.baseUrlEnv!];
  if (!rawUrl)
    throw new ConfigError(`deployment '${name}' needs its base URL in ${d.baseUrlEnv}`, {}, 'FLIS_ERR_DEPLOYMENT');
  const token = env[d.tokenEnv!] || env.FLIS_TOKEN;
  if (!token && !req.tokenIssued)
    throw new ConfigError(
      `deployment '${name}' needs a bearer token in ${d.tokenEnv} or FLIS_TOKEN (or --token-url / --token-command)`,
      {},
      'FLIS_ERR_SECRET_MISSING',
    );
  const allowWrites = !d.liveData || req.allowWrites === true;
  return {
    name,
    embedded: false,
    liveData: d.liveData,
    baseUrl: checkBaseUrl(rawUrl, d.baseUrlEnv!),
    token: token ? checkToken(token, env[d.tokenEnv!] ? d.tokenEnv! : 'FLIS_TOKEN') : undefined,
    allowWrites,
    writesSkippedReason: allowWrites
      ? ''
      : `deployment '${name}' holds live data: write checks are skipped unless --allow-writes is given`,
  };
}

/**
 * For commands that take one `NAME|URL` argument (`flis record --upstream`): a URL is ad-hoc, anything else a name.
 * `tokenOptional`: the command needs no token of its own (a recorder forwards the client's Authorization).
 */
export function resolveDeployment(
  nameOrUrl: string,
  env: NodeJS.ProcessEnv,
  file = DEPLOYMENTS_FILE,
  tokenOptional = false,
): ResolvedTarget {
  return /^https?:\/\//i.test(nameOrUrl)
    ? resolveTarget(
        { baseUrl: nameOrUrl, allowWrites: true, tokenIssued: tokenOptional, urlFlag: '--upstream' },
        env,
        file,
      )
    : resolveTarget({ deployment: nameOrUrl, tokenIssued: tokenOptional }, env, file);
}
