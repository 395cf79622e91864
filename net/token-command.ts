/**
 * --token-command: any other flow (a vault, a device login) as a shell
 * command. It prints the token, or JSON with access_token and expires_in; it
 * is run again to renew. Its output is a secret; its stderr passes through
 * only as a redacted first line in the error when it fails.
 */
import { spawn } from 'node:child_process';
import { FlisError } from '../errors/flis-error.ts';
import { type IssuedToken, RenewingToken, tokenFromJson } from './renewing-token.ts';
import type { SecretBook } from './secret-book.ts';

export const TOKEN_COMMAND_TIMEOUT_MS = 60_000;

interface Ran {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  error?: Error;
}

function runShell(command: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<Ran> {
  return new Promise((done) => {
    const child = spawn(command, { shell: true, env, stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMs });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => {
      stdout += s;
    });
    child.stderr.setEncoding('utf8').on('data', (s: string) => {
      stderr += s;
    });
    child.on('error', (error) => done({ status: null, signal: null, stdout, stderr, error }));
    child.on('close', (status, signal) => done({ status, signal, stdout, stderr }));
  });
}

/** The printed token: JSON with access_token, else the output's only word. */
export function parseCommandOutput(stdout: string): IssuedToken | undefined {
  const text = stdout.trim();
  if (!text) return undefined;
  if (text.startsWith('{')) {
    try {
      return tokenFromJson(JSON.parse(text));
    } catch {
      return undefined;
    }
  }
  return /\s/.test(text) ? undefined : { token: text };
}

export class CommandToken extends RenewingToken {
  constructor(
    private readonly command: string,
    private readonly env: NodeJS.ProcessEnv,
    book: SecretBook,
    private readonly timeoutMs = TOKEN_COMMAND_TIMEOUT_MS,
  ) {
    super(book);
  }

  protected override issuer(): string {
    return '--token-command';
  }

  private fail(what: string, stderr = ''): FlisError {
    const said = stderr.trim().split('\n')[0]?.trim().slice(0, 120);
    // Whatever the command said may hold a secret it knows; the book's are blotted out in cli/main.ts as well.
    const redacted = said ? this.redact(said) : '';
    return new FlisError(
      'FLIS_ERR_TOKEN',
      `--token-command ${what}${redacted ? ` (it said: ${redacted})` : ''}; check FLIS_TOKEN_COMMAND`,
    );
  }

  private redact(text: string): string {
    return this.book.all().reduce((t, secret) => (secret.length >= 4 ? t.split(secret).join('[REDACTED]') : t), text);
  }

  protected async issue(): Promise<IssuedToken> {
    const ran = await runShell(this.command, this.env, this.timeoutMs);
    if (ran.error) throw this.fail(`could not be started (${ran.error.message})`);
    if (ran.signal)
      throw this.fail(
        `was stopped by ${ran.signal}${ran.signal === 'SIGTERM' ? ` (no token within ${this.timeoutMs / 1000} s)` : ''}`,
        ran.stderr,
      );
    if (ran.status !== 0) throw this.fail(`exited with status ${ran.status}`, ran.stderr);
    if (!ran.stdout.trim())
      throw this.fail('printed nothing; it must print the token, or JSON with access_token', ran.stderr);
    const issued = parseCommandOutput(ran.stdout);
    if (!issued) throw this.fail('printed no token: print the token alone, or JSON with access_token (and expires_in)');
    return issued;
  }
}
