/**
 * Body parsing. Bodies are JSON (spec 4, spec 5 rule 3): anything else is a
 * 415, malformed or empty JSON on a write is a 400, and neither may reach a
 * handler as a half-parsed value that could end in a 500. The lenient variant
 * reads JSON under any content type and an empty write as {} (spec 5 rule 3
 * binds the client, so a server may).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from './errors.ts';

const JSON_TYPES: readonly (string | RegExp)[] = ['application/json', /^application\/[\w.+-]+\+json$/];

/** JSON.parse would create an own "__proto__" key that a later merge could turn into a prototype change. */
function dropProtoKeys(key: string, value: unknown): unknown {
  return key === '__proto__' ? undefined : value;
}

function parseJson(request: FastifyRequest, text: string): unknown {
  if (text.trim() === '') {
    // A DELETE may carry a content type out of habit; a write must carry a value.
    if (request.method === 'DELETE') return undefined;
    throw new HttpError(400, 'EMPTY_BODY', 'the body is empty; send a JSON value');
  }
  try {
    // RFC 8259 lets a parser ignore a byte order mark; some Windows clients send one.
    return JSON.parse(text.replace(/^\uFEFF/, ''), dropProtoKeys) as unknown;
  } catch {
    // The parser's own message quotes the body; the body is the client's and may hold anything.
    throw new HttpError(400, 'INVALID_JSON', 'the body is not valid JSON');
  }
}

function rejectNonJson(request: FastifyRequest, text: string): unknown {
  if (request.method === 'DELETE' && text === '') return undefined;
  throw new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', 'bodies must be sent as Content-Type: application/json');
}

/** The lenient variant: whatever the content type, a body that parses as JSON is JSON; an empty write is {}. */
function parseAnyAsJson(request: FastifyRequest, text: string): unknown {
  if (text.trim() === '') return request.method === 'DELETE' ? undefined : {};
  try {
    return parseJson(request, text);
  } catch {
    return rejectNonJson(request, text);
  }
}

type TextParser = (request: FastifyRequest, text: string) => unknown;

function addTextParser(app: FastifyInstance, contentType: string | RegExp, parse: TextParser): void {
  app.addContentTypeParser(contentType, { parseAs: 'string' }, (request, body, done) => {
    try {
      done(null, parse(request, String(body)));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
}

export function installJsonBody(app: FastifyInstance, lenient = false): void {
  app.removeAllContentTypeParsers();
  for (const type of JSON_TYPES) addTextParser(app, type, lenient ? parseAnyAsJson : parseJson);
  // "*" also catches a body sent with no content type at all.
  addTextParser(app, '*', lenient ? parseAnyAsJson : rejectNonJson);
}
