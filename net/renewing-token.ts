/**
 * A token that is issued during the run and renewed: ahead of its expiry
 * (expires_in) when asked for, and at once on refresh(). Concurrent renewals
 * share one request; every token issued is learnt as a secret first.
 */
import { checkToken } from '../errors/token-value.ts';
import type { TokenSource } from './types.ts';
import { KeepsSecrets, type SecretBook } from './secret-book.ts';

export interface IssuedToken {
  token: string;
  /** Seconds the token lives, as the issuer said; undefined when it did not say (renewed on a 401 only). */
  expiresIn?: number | undefined;
}

/** Renew this share of the lifetime before expiry (a 5 s token at 4 s), never more than a minute early. */
const EARLY_SHARE = 0.2;
const MAX_EARLY_MS = 60_000;

export abstract class RenewingToken extends KeepsSecrets implements TokenSource {
  private token: string | undefined;
  private renewAt = Number.POSITIVE_INFINITY;
  private expiresAt = Number.POSITIVE_INFINITY;
  private pending: Promise<string> | undefined;
  private readonly issued = new Set<string>();

  constructor(book: SecretBook) {
    super(book);
  }

  /** Ask the issuer for a new token; throws a FlisError that names what to fix. */
  protected abstract issue(): Promise<IssuedToken>;

  /** Who issues the tokens, as an error names it (--token-command, the token endpoint). */
  protected issuer(): string {
    return 'the token issuer';
  }

  current(): Promise<string> {
    const token = this.token;
    if (token !== undefined && Date.now() < this.renewAt) return Promise.resolve(token);
    if (token === undefined) return this.renew('');
    // An early renewal that fails costs nothing while the token still lives: it is tried again on the next call.
    return this.renew('expires soon (expires_in)').catch((error: unknown) => {
      if (Date.now() < this.expiresAt) return token;
      throw error;
    });
  }

  refresh(reason: string, refused?: string): Promise<string> {
    if (this.pending) return this.pending;
    // Refused with a token already replaced: the current one has not been tried yet (renewed first if it is due).
    if (refused !== undefined && this.token !== undefined && refused !== this.token) return this.current();
    return this.renew(reason);
  }

  /** One request for however many callers; the log records renewals, not the first fetch. */
  private renew(reason: string): Promise<string> {
    if (this.pending) return this.pending;
    this.pending = this.issue()
      .then(({ token, expiresIn }) => {
        this.book.add(token);
        checkToken(token, `the token ${this.issuer()} gave`, 'FLIS_ERR_TOKEN');
        this.issued.add(token);
        if (reason) this.book.logRenewal(reason);
        this.token = token;
        const now = Date.now();
        const lives = expiresIn !== undefined && expiresIn > 0;
        this.renewAt = lives ? now + earlyBy(expiresIn * 1000) : Number.POSITIVE_INFINITY;
        this.expiresAt = lives ? now + expiresIn * 1000 : Number.POSITIVE_INFINITY;
        return token;
      })
      .finally(() => {
        this.pending = undefined;
      });
    return this.pending;
  }

  isRunToken(token: string): boolean {
    return this.issued.has(token);
  }

  async close(): Promise<void> {
    await this.pending?.catch(() => undefined);
  }
}

function earlyBy(lifetimeMs: number): number {
  return lifetimeMs - Math.min(lifetimeMs * EARLY_SHARE, MAX_EARLY_MS);
}

/** Read {access_token, expires_in} from a token answer; expires_in may come as a string. */
export function tokenFromJson(body: unknown): IssuedToken | undefined {
  const b = body as { access_token?: unknown; expires_in?: unknown } | null;
  if (!b || typeof b.access_token !== 'string' || !b.access_token) return undefined;
  const expiresIn = Number(b.expires_in);
  return { token: b.access_token, expiresIn: Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : undefined };
}
