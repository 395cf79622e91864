/**
 * `flis show-report`: a run's report folder served read-only over HTTP on
 * loopback. The Playwright HTML report fetches its data and attachments, which
 * a browser refuses from file:// ("No tests found"); over HTTP it renders, and
 * the certificate's links into it (html/index.html#?testId=…) work too.
 *
 * Static files only: GET and HEAD, nothing outside the folder (a path that
 * resolves outside it, through `..` or a symlink, is a 404), no listing.
 */
import { createReadStream, existsSync, realpathSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve, sep } from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.jsonl': 'application/jsonl; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.yaml': 'text/yaml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webm': 'video/webm',
  '.zip': 'application/zip',
  '.woff2': 'font/woff2',
};

/** Where `/` leads: the Playwright report if the folder has one, else the certificate. */
export const REPORT_ENTRY_POINTS = ['html/index.html', 'certificate.html', 'allure-report/index.html'] as const;

export interface ReportServer {
  /** http://127.0.0.1:PORT/ */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** The file a URL path names inside `root`, or undefined when it is not a file there. */
export function fileFor(root: string, urlPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0')) return undefined;
  const candidate = resolve(join(root, decoded));
  if (candidate !== root && !candidate.startsWith(root + sep)) return undefined;
  if (!existsSync(candidate)) return undefined;
  const real = realpathSync(candidate);
  if (real !== root && !real.startsWith(root + sep)) return undefined;
  return statSync(real).isFile() ? real : undefined;
}

function answer(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
  res.end(text);
}

function handler(root: string) {
  const entry = REPORT_ENTRY_POINTS.find((p) => existsSync(join(root, p)));
  return (req: IncomingMessage, res: ServerResponse): void => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      answer(res, 405, 'read-only: GET and HEAD\n', { allow: 'GET, HEAD' });
      return;
    }
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path === '/' && entry) {
      answer(res, 302, `${entry}\n`, { location: `/${entry}` });
      return;
    }
    const file = fileFor(root, path);
    if (!file) {
      answer(res, 404, `not in the report folder: ${path}\n`);
      return;
    }
    res.writeHead(200, {
      'content-type': CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
      'content-length': String(statSync(file).size),
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    createReadStream(file)
      .on('error', () => res.destroy())
      .pipe(res);
  };
}

/** Serves `dir` on 127.0.0.1:`port` (0: a free port). Rejects with the listen error (EADDRINUSE, …). */
export function serveReportFolder(dir: string, port: number): Promise<ReportServer> {
  const root = realpathSync(resolve(dir));
  const server = createServer(handler(root));
  return new Promise((done, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', fail);
      const bound = (server.address() as AddressInfo).port;
      done({
        url: `http://127.0.0.1:${bound}/`,
        port: bound,
        close: () =>
          new Promise<void>((closed) => {
            server.close(() => closed());
            server.closeAllConnections();
          }),
      });
    });
  });
}
