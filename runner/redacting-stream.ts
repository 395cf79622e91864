/**
 * The test runner's output, redacted on its way to the terminal, whatever the pipe's chunking. Redacting each chunk
 * alone prints a token whole when it straddles two chunks, and garbles a character whose bytes are split.
 *
 * Bytes are decoded with a StringDecoder (a split character waits for its last byte). Text is then let through up
 * to where it may still be the start of a secret: every spelling of a secret (raw, percent-encoded, escaped,
 * base64; errors/secret-forms.ts) is made of the secret's own characters, the base64 alphabets, `%` and `\`, so the
 * trailing run of such characters is held until a character outside that set, or the end, closes it. Progress dots
 * and line ends pass at once; only a run that could hide a secret waits.
 */
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { redactText } from '../core/redact.ts';

const ENCODING_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=_-%\\';

export class RedactingWriter {
  private readonly decoder = new StringDecoder('utf8');
  private held = '';
  private readonly secrets: () => readonly string[];

  /** `secrets` may be a function: a run learns new tokens as they are issued, and each chunk uses those known then. */
  constructor(
    secrets: readonly string[] | (() => readonly string[]),
    private readonly write: (text: string) => void,
  ) {
    this.secrets = typeof secrets === 'function' ? secrets : () => secrets;
  }

  push(chunk: Buffer): void {
    const text = this.held + this.decoder.write(chunk);
    const secrets = this.secrets();
    const secretChars = new Set([...ENCODING_CHARS, ...secrets.join('')]);
    let cut = text.length;
    while (cut > 0 && secretChars.has(text[cut - 1]!)) cut--;
    this.held = text.slice(cut);
    if (cut > 0) this.write(redactText(text.slice(0, cut), secrets));
  }

  end(): void {
    const text = this.held + this.decoder.end();
    this.held = '';
    if (text) this.write(redactText(text, this.secrets()));
  }
}

/** Pipe `stream` to `write` through a RedactingWriter. */
export function pipeRedacted(
  stream: Readable,
  secrets: readonly string[] | (() => readonly string[]),
  write: (text: string) => void,
): void {
  const writer = new RedactingWriter(secrets, write);
  stream.on('data', (chunk: Buffer) => writer.push(chunk));
  stream.on('end', () => writer.end());
}
