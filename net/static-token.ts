/**
 * A token that never changes: FLIS_TOKEN (or the deployment's own variable)
 * read once, as flis always did. A refresh cannot cure a refused static token,
 * so refresh() hands back the same one and the 401 stands.
 */
import type { TokenSource } from './types.ts';
import { KeepsSecrets, SecretBook } from './secret-book.ts';

export class StaticToken extends KeepsSecrets implements TokenSource {
  constructor(
    private readonly token: string,
    book = new SecretBook(),
  ) {
    super(book);
    book.add(token);
  }

  async current(): Promise<string> {
    return this.token;
  }

  async refresh(_reason: string, _refused?: string): Promise<string> {
    return this.token;
  }

  isRunToken(token: string): boolean {
    return token === this.token;
  }

  async close(): Promise<void> {}
}
