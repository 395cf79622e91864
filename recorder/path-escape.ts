/**
 * Whether a recorded path (relative to the base URL, as a cassette holds it) could take a request outside the base
 * path /apis/v0. A cassette is a partner's, untrusted: its paths are sent again by `flis regress` with the run's
 * token, served by `flis replay`, imported from HARs. A path is refused when any URL parser or server on the way
 * could read it as leaving its base:
 *
 * - a `.` or `..` segment, and the same written with percent-encoded dots (`%2e%2e`, `.%2E`, in any case), encoded
 *   twice or more (`%252e%252e`), as overlong UTF-8 (`%c0%ae`), or as other Unicode dots that NFKC normalisation
 *   makes `.` (`．．`, `‥`); also inside a segment after an encoded `/` or `\` (`..%2f..%2fetc`), which a server
 *   that decodes the path before it routes splits into dot segments;
 * - a backslash, which WHATWG URL parsers read as `/` (so `/..\x` is `/../x`);
 * - an empty segment (`//host`): joined to a base by a resolver it names another host;
 * - a control character: URL parsers drop tabs and line breaks (`/.<TAB>./x` is `/../x`), and none belongs in a
 *   request line.
 *
 * The recorder never writes such a path (it answers such a request 400), so refusing it costs a true cassette nothing.
 */

/** Why `path` could leave the base path, in a few words ("a '..' segment"); undefined when it cannot. */
export function pathEscape(path: string): string | undefined {
  if (!path.startsWith('/')) return "no leading '/'";
  // What recorded paths almost always are: printable ASCII with no dot, percent sign or backslash.
  if (/^[\x21-\x7e]*$/.test(path) && !/[.%\\]/.test(path)) return emptySegment(path);
  const control = /[\x00-\x1f\x7f]/.exec(path)?.[0];
  if (control !== undefined)
    return `a control character (U+${control.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')})`;
  if (path.includes('\\')) return "a backslash, which URL parsers read as '/'";
  const empty = emptySegment(path);
  if (empty) return empty;
  for (const segment of path.slice(1).split('/')) {
    const dots = dotSegment(segment);
    if (dots) return dots;
  }
  return undefined;
}

function emptySegment(path: string): string | undefined {
  // A trailing '/' is an empty last segment, and harmless; one anywhere else is '//'.
  return /\/\//.test(path) ? "an empty segment ('//'), which a URL resolver reads as a host" : undefined;
}

const DOTS = /^\.\.?$/;

/** A dot segment hidden in one segment, at any depth of percent-encoding; undefined when there is none. */
function dotSegment(segment: string): string | undefined {
  if (DOTS.test(segment)) return `a '${segment}' segment`;
  if (holdsDots(segment.normalize('NFKC'))) return 'a dot segment written with Unicode dots';
  let layer = segment;
  for (let depth = 1; depth <= 4; depth++) {
    if (!layer.includes('%')) return undefined;
    const bytes = percentDecoded(layer);
    const next = bytes.toString('utf8');
    const written = depth === 1 ? 'percent-encoded dots' : 'dots percent-encoded twice or more';
    if (holdsDots(next)) return `a dot segment written with ${written}`;
    if (holdsDots(next.normalize('NFKC'))) return `a dot segment written with ${written} and Unicode dots`;
    if (holdsDots(overlongAscii(bytes))) return 'a dot segment written in overlong UTF-8';
    if (next === layer) return undefined;
    layer = next;
  }
  return 'a segment percent-encoded five times or more';
}

/** Whether text, split where a server might split it ('/' or '\'), has a '.' or '..' piece. */
function holdsDots(text: string): boolean {
  return text.split(/[/\\]/).some((piece) => DOTS.test(piece));
}

/** `%XX` as its byte; every other character as its UTF-8 bytes (a bare '%' stays itself). */
function percentDecoded(text: string): Buffer {
  const out: Buffer[] = [];
  let from = 0;
  for (const m of text.matchAll(/%([0-9A-Fa-f]{2})/g)) {
    out.push(Buffer.from(text.slice(from, m.index), 'utf8'), Buffer.from([Number.parseInt(m[1]!, 16)]));
    from = m.index + 3;
  }
  out.push(Buffer.from(text.slice(from), 'utf8'));
  return Buffer.concat(out);
}

/** The bytes as latin1 text with the overlong UTF-8 forms of '.', '/' and '\' (which lax decoders accept) as ASCII. */
function overlongAscii(bytes: Buffer): string {
  return bytes
    .toString('latin1')
    .replace(/\xc0\xae|\xe0\x80\xae|\xf0\x80\x80\xae/g, '.')
    .replace(/\xc0\xaf|\xe0\x80\xaf|\xf0\x80\x80\xaf/g, '/')
    .replace(/\xc1\x9c|\xe0\x81\x9c|\xf0\x80\x81\x9c/g, '\\');
}
