/**
 * `flis show-report` serves a report folder on loopback so the Playwright
 * HTML report renders (from file:// it shows "No tests found"): the reports
 * answer with their types, `/` leads to the Playwright report, nothing outside
 * the folder is reachable, and a run's closing lines print the command.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { CommandIo } from '../../cli/command.ts';
import { showReportCommand, showReportHint } from '../../cli/commands/show-report.ts';
import { serveReportFolder } from '../../reporting/report-server.ts';

const dir = mkdtempSync(join(tmpdir(), 'flis-show-report-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const reports = join(dir, 'reports');
mkdirSync(join(reports, 'html', 'data'), { recursive: true });
writeFileSync(join(reports, 'html', 'index.html'), '<!doctype html><title>Playwright</title>');
writeFileSync(join(reports, 'html', 'data', 'a.json'), '{"ok":true}');
writeFileSync(join(reports, 'certificate.html'), '<!doctype html><title>certificate</title>');
writeFileSync(join(dir, 'secret.txt'), 'outside the report folder');
symlinkSync(join(dir, 'secret.txt'), join(reports, 'link.txt'));

/** A raw GET (no URL normalisation on our side), so `..` reaches the server as sent. */
function get(port: number, path: string, method = 'GET'): Promise<{ status: number; type: string; body: string }> {
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port, path, method }, (res) => {
      let body = '';
      res.on('data', (b: Buffer) => (body += b.toString('utf8')));
      res.on('end', () =>
        done({
          status: res.statusCode ?? 0,
          type: String(res.headers['content-type'] ?? ''),
          body: res.headers.location ? String(res.headers.location) : body,
        }),
      );
    });
    req.on('error', fail);
    req.end();
  });
}

describe('the report server', () => {
  it('serves the report files with their types, and / leads to the Playwright report', async () => {
    const server = await serveReportFolder(reports, 0);
    try {
      assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
      const page = await get(server.port, '/html/index.html');
      assert.deepEqual([page.status, page.type], [200, 'text/html; charset=utf-8']);
      assert.match(page.body, /Playwright/);
      assert.equal((await get(server.port, '/html/data/a.json')).type, 'application/json; charset=utf-8');
      assert.deepEqual(await get(server.port, '/'), {
        status: 302,
        type: 'text/plain; charset=utf-8',
        body: '/html/index.html',
      });
    } finally {
      await server.close();
    }
  });

  it('reaches nothing outside the folder, lists nothing, and writes nothing', async () => {
    const server = await serveReportFolder(reports, 0);
    try {
      for (const path of [
        '/../secret.txt',
        '/..%2fsecret.txt',
        '/html/..%2f..%2fsecret.txt',
        '/link.txt',
        '/html/',
        '/%zz',
      ])
        assert.equal((await get(server.port, path)).status, 404, path);
      assert.equal((await get(server.port, '/certificate.html', 'POST')).status, 405);
    } finally {
      await server.close();
    }
  });
});

describe('flis show-report', () => {
  it('prints the URLs of the reports and serves until stopped', async () => {
    const out: string[] = [];
    let stop = () => {};
    const stopped = new Promise<void>((r) => (stop = r));
    let ready = () => {};
    const printed = new Promise<void>((r) => (ready = r));
    const io: CommandIo = {
      out: (l) => {
        out.push(l);
        if (l.includes('certificate.html')) ready();
      },
      err: () => {},
      env: {},
      stopped,
    };
    const exit = showReportCommand.run(['--report-dir', reports, '--port', '0'], io);
    await Promise.race([printed, exit]);
    const url = out.find((l) => l.endsWith('html/index.html'))?.trim();
    assert.ok(url, out.join('\n'));
    const port = Number(new URL(url).port);
    assert.equal((await get(port, new URL(url).pathname)).status, 200);
    stop();
    assert.equal(await exit, 0);
  });

  it('says what to do when the folder has no report', async () => {
    const io: CommandIo = { out: () => {}, err: () => {}, env: {}, stopped: new Promise(() => {}) };
    await assert.rejects(showReportCommand.run(['--report-dir', join(dir, 'empty')], io), {
      code: 'FLIS_ERR_USAGE',
      message: /no report in .*empty.*run 'flis run' first/,
    });
  });

  it("a run's closing line names the command, with --report-dir unless it is reports/", () => {
    assert.equal(showReportHint(reports, dir), 'view the HTML report: npx flis show-report');
    assert.equal(
      showReportHint(reports, '/elsewhere'),
      `view the HTML report: npx flis show-report --report-dir ${reports}`,
    );
    assert.equal(showReportHint(join(dir, 'empty'), dir), undefined);
  });
});
