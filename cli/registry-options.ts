/**
 * What the registry commands share: the registry's URL (--registry, else FLIS_REGISTRY_URL), the client that
 * carries FLIS_REGISTRY_TOKEN, and deployment names checked against specs/deployments.yaml (a typo of
 * 'production-1' must not quietly gate nothing).
 */
import { loadDeployments } from '../config/deployments.ts';
import { oneOf, UsageError } from '../errors/flis-error.ts';
import { RegistryClient, registryUrl } from '../registry/client.ts';

export const REGISTRY_HELP = `  --registry URL           the registry ('flis registry serve')                        [env FLIS_REGISTRY_URL]
                           its token from FLIS_REGISTRY_TOKEN (never a flag, never printed)`;

/** The registry URL given by flag or environment, or undefined when neither is set. */
export function registryOption(flag: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  if (flag !== undefined) return registryUrl(flag, '--registry');
  return env.FLIS_REGISTRY_URL ? registryUrl(env.FLIS_REGISTRY_URL, 'FLIS_REGISTRY_URL') : undefined;
}

export function registryClient(flag: string | undefined, env: NodeJS.ProcessEnv, what: string): RegistryClient {
  const url = registryOption(flag, env);
  if (!url) throw new UsageError(`--registry URL (or FLIS_REGISTRY_URL) is required: ${what} asks the registry`);
  return RegistryClient.fromEnv(url, env, what);
}

/** A deployment name of specs/deployments.yaml. */
export function deploymentName(what: string, value: string): string {
  return oneOf(
    what,
    value.trim(),
    loadDeployments().deployments.map((d) => d.name),
  );
}
