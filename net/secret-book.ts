/**
 * What every token source shares: the secrets it has learnt (tokens issued,
 * the client secret, proxy credentials), the listeners that must hear of each
 * new one before it can be printed, and the log of renewals for the reports.
 */
export class SecretBook {
  private readonly known = new Set<string>();
  private readonly listeners: ((secret: string) => void)[] = [];
  private readonly renewals: { at: string; reason: string }[] = [];

  /** Learn a secret; listeners hear it at once, so redaction knows it before anyone can print it. */
  add(secret: string | undefined): void {
    if (!secret || this.known.has(secret)) return;
    this.known.add(secret);
    for (const listener of this.listeners) listener(secret);
  }

  has(secret: string): boolean {
    return this.known.has(secret);
  }

  all(): string[] {
    return [...this.known];
  }

  /** A late listener first hears every secret learnt so far. */
  listen(listener: (secret: string) => void): void {
    this.listeners.push(listener);
    for (const secret of this.known) listener(secret);
  }

  logRenewal(reason: string): void {
    this.renewals.push({ at: new Date().toISOString(), reason });
  }

  log(): { at: string; reason: string }[] {
    return [...this.renewals];
  }
}

/** The part of a TokenSource that only reads its book: what is secret, who hears of it, the renewals. */
export abstract class KeepsSecrets {
  constructor(protected readonly book: SecretBook) {}

  secrets(): string[] {
    return this.book.all();
  }

  onSecret(listener: (secret: string) => void): void {
    this.book.listen(listener);
  }

  refreshes(): { at: string; reason: string }[] {
    return this.book.log();
  }
}
