/**
 * The three people of docs/registry.md, end to end through the commands, on both databases: an admin adds two
 * partners (each token printed once, only its hash stored); a partner publishes with `flis certify --publish`
 * (and again with `flis registry publish`: stored once); the service team's CI replays the registry's cassettes
 * against two release candidates with `flis regress --registry`, asks `flis can-i-release` (with and without
 * --to), records where a release runs, names the partners a contract change touches from the registry's
 * cassettes, and backs the database up with the command docs/registry.md gives for it.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse, stringify } from 'yaml';
import { recordPartners } from '../../bench/partner-clients.ts';
import { canIReleaseCommand } from '../../cli/commands/can-i-release.ts';
import { certifyCommand } from '../../cli/commands/certify.ts';
import { contractCommand } from '../../cli/commands/contract.ts';
import { registryCommand } from '../../cli/commands/registry.ts';
import { regressCommand } from '../../cli/commands/regress.ts';
import { startMock, type RunningMock } from '../../mock/server.ts';
import { openDatabase } from '../../registry/database.ts';
import { Store } from '../../registry/store.ts';
import type { Command } from '../../cli/command.ts';
import { FlisError } from '../../errors/flis-error.ts';
import { type CommandResult, runCommand } from '../reporting/helpers.ts';
import { ROOT } from '../runner/helpers.ts';
import { ADMIN_TOKEN, certificate, ENGINES, registryOn, type TestRegistry, tempDir, testPostgres } from './helpers.ts';

const tmp = tempDir();
after(() => tmp.cleanup());
const SANDBOX_TOKEN = 'sandbox-token-for-the-registry-workflow';
let mock: RunningMock;
let cassettes = '';
/** acme's certificate as `flis certify` wrote it, for the engine that does not run certify itself. */
let acmeCertificate = '';

before(async () => {
  mock = await startMock({ token: SANDBOX_TOKEN });
  cassettes = await recordPartners(join(tmp.dir, 'cassettes'), 5, ['billing-reader', 'offer-writer']);
});
after(async () => mock?.close());

function env(token: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    FLIS_REGISTRY_TOKEN: token,
    FLIS_SANDBOX_BASE_URL: mock.baseUrl,
    FLIS_SANDBOX_TOKEN: SANDBOX_TOKEN,
  };
}

/** A command in-process, its errors turned into exit 2 and one line as cli/main.ts does. */
async function run(command: Command, args: string[], e: NodeJS.ProcessEnv): Promise<CommandResult> {
  try {
    return await runCommand(command, args, e);
  } catch (err) {
    if (!(err instanceof FlisError)) throw err;
    return { code: 2, out: '', err: `flis ${command.name}: ${err.message}` };
  }
}

function lastLine(text: string): string {
  return text.trim().split('\n').at(-1) ?? '';
}

for (const engine of ENGINES) {
  describe(`the registry on the ${engine} database`, () => {
    let reg: TestRegistry;
    const tokens: Record<string, string> = {};
    const flis = (command: Command, args: string[], token = ADMIN_TOKEN, extra: NodeJS.ProcessEnv = {}) =>
      run(command, [...args, command === certifyCommand ? '--publish' : '--registry', reg.url], {
        ...env(token),
        ...extra,
      });

    before(async () => {
      reg = await registryOn(engine, tmp.dir);
    });
    after(async () => reg?.stop());

    it('an admin adds partners: each token is printed once, and only its hash is stored', async () => {
      for (const [name, deployments] of [
        ['acme', 'sandbox,production-1'],
        ['globex', 'sandbox'],
      ] as const) {
        const r = await flis(registryCommand, ['partner', 'add', name, '--deployments', deployments]);
        assert.equal(r.code, 0, r.err);
        const [said, token] = r.out.split('\n');
        assert.match(said ?? '', new RegExp(`partner ${name} added .*shown this once`));
        assert.match(token ?? '', /^flisr_p_[A-Za-z0-9_-]{40,}$/);
        tokens[name] = token!;
      }
      const stored = JSON.stringify(await reg.store.db.tx((q) => q.all('SELECT * FROM partners')));
      for (const t of Object.values(tokens)) assert.ok(!stored.includes(t), 'no token is stored, only its hash');
      const again = await flis(registryCommand, ['partner', 'add', 'acme']);
      assert.equal(again.code, 2);
      assert.match(again.err, /409: partner 'acme' exists already/);
      const typo = await flis(registryCommand, ['partner', 'add', 'initech', '--deployments', 'production1']);
      assert.equal(typo.code, 2, 'a deployment name that is not in specs/deployments.yaml is refused');
      assert.match(typo.err, /did you mean 'production-1'/);
      const list = await flis(registryCommand, ['partner', 'list']);
      assert.match(list.out, /^acme\tactive\tproduction-1,sandbox$/m);
    });

    it('a partner publishes its certificate and cassette, and a second publication of the same files is the first', async () => {
      const cassette = join(cassettes, 'billing-reader.yaml');
      if (!acmeCertificate) {
        const dir = join(tmp.dir, 'certify-acme');
        const r = await flis(
          certifyCommand,
          [
            '--partner',
            'acme',
            '--suite',
            'billing',
            '--seed',
            '3',
            '--runs',
            '3',
            '--progress',
            'none',
            '--report-dir',
            dir,
            '--cassette',
            cassette,
          ],
          tokens.acme,
        );
        const published = r.out.split('\n').find((l) => l.includes('published to'));
        assert.match(
          published ?? r.out + r.err,
          /^flis certify: published to http:\/\/127\.0\.0\.1:\d+: publication 1 of acme, with its cassette; http.*\/reports\/certificates\/1$/,
        );
        acmeCertificate = join(dir, 'certificate-acme.json');
      } else {
        const r = await flis(
          registryCommand,
          ['publish', '--certificate', acmeCertificate, '--cassette', cassette],
          tokens.acme,
        );
        assert.equal(r.code, 0, r.err);
        assert.match(r.out, /^flis registry: published: publication 1 of acme;/);
      }
      const again = await flis(
        registryCommand,
        ['publish', '--certificate', acmeCertificate, '--cassette', cassette],
        tokens.acme,
      );
      assert.equal(again.code, 0, again.err);
      assert.match(again.out, /already published: publication 1 of acme/);
      assert.equal((await reg.store.counts()).publications, 1, 'the retried publication was not stored twice');
      const sha = JSON.parse(readFileSync(acmeCertificate, 'utf8')).spec.sha256;
      const p = (await reg.store.publications('acme'))[0]!;
      assert.equal(p.contractSha256, sha, "the contract version is the sha256 of the tool's OpenAPI document");
      assert.equal(p.toolVersion, JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
      assert.equal(p.exchanges, 5);
      // globex's certificate, as certify writes it, with its offer-writer traffic.
      const dir = join(tmp.dir, `globex-${engine}`);
      const cert = join(tmp.dir, `certificate-globex-${engine}.json`);
      writeFileSync(
        cert,
        JSON.stringify({
          ...certificate('globex', `globex-run-${engine}`),
          spec: { version: '0.1', file: 'specs/openapi.yaml', sha256: sha },
        }),
      );
      writeFileSync(cert.replace(/\.json$/, '.html'), '<!doctype html><title>globex</title><p>globex</p>');
      const g = await flis(
        registryCommand,
        ['publish', '--certificate', cert, '--cassette', join(cassettes, 'offer-writer.yaml')],
        tokens.globex,
      );
      assert.equal(g.code, 0, g.err + dir);
    });

    it("a cassette holding the partner's registry token never leaves the machine", async () => {
      const leaky = join(tmp.dir, `leaky-${engine}.yaml`);
      writeFileSync(leaky, `${readFileSync(join(cassettes, 'billing-reader.yaml'), 'utf8')}# ${tokens.acme}\n`);
      const r = await flis(
        registryCommand,
        ['publish', '--certificate', acmeCertificate, '--cassette', leaky],
        tokens.acme,
      );
      assert.equal(r.code, 2);
      assert.match(r.err, /holds a secret \(the value of FLIS_REGISTRY_TOKEN .*nothing was published/);
      assert.ok(!r.err.includes(tokens.acme!));
      assert.equal((await reg.store.counts()).publications, 2);
    });

    it("the service team's CI: regress records verdicts per candidate, and can-i-release reads them", async () => {
      const never = await flis(canIReleaseCommand, ['2.4.0']);
      assert.equal(never.code, 1);
      assert.match(
        never.out,
        /^BLOCKED acme: never replayed against 2\.4\.0 \(its latest cassette: publication 1 of .*\)$/m,
      );
      assert.match(never.out, /^BLOCKED globex: never replayed against 2\.4\.0/m);
      assert.equal(lastLine(never.out), 'flis can-i-release 2.4.0: no — 2 of 2 partner(s) block it; exit 1');

      const good = await flis(regressCommand, [
        '--candidate',
        '2.4.0',
        '--report-dir',
        join(tmp.dir, `r240-${engine}`),
      ]);
      assert.equal(good.code, 0, good.out + good.err);
      assert.match(good.out, /recorded 2 verdict\(s\) against 2\.4\.0/);
      const yes = await flis(canIReleaseCommand, ['2.4.0']);
      assert.equal(yes.code, 0, yes.out);
      assert.equal(lastLine(yes.out), 'flis can-i-release 2.4.0: yes — 2 partner(s) unbroken; exit 0');

      const bad = await flis(regressCommand, [
        '--candidate',
        '2.5.0',
        '--mock-fault',
        'ack-missing-batch-id',
        '--report-dir',
        join(tmp.dir, `r250-${engine}`),
      ]);
      assert.equal(bad.code, 1, bad.out);
      const no = await flis(canIReleaseCommand, ['2.5.0']);
      assert.equal(no.code, 1);
      assert.match(
        no.out,
        /^BLOCKED globex: broken by 2\.5\.0: \d+ broken exchange\(s\) of \d+; first: \w+ at line \d+.*; http:\/\/127\.0\.0\.1:\d+\/reports\/replays\/\d+$/m,
      );
      assert.match(no.out, /^ok {6}acme: unchanged/m);
      const prod = await flis(canIReleaseCommand, ['2.5.0', '--to', 'production-1']);
      assert.equal(prod.code, 0, `only acme is live on production-1: ${prod.out}`);
      assert.ok(!prod.out.includes('globex'));

      const rec = await flis(registryCommand, ['record-release', '2.4.0', '--deployment', 'sandbox']);
      assert.equal(rec.code, 0, rec.err);
      const onSandbox = await flis(canIReleaseCommand, ['2.5.0'], ADMIN_TOKEN, { FLIS_RELEASE_TO: 'sandbox' });
      assert.match(onSandbox.out, /^sandbox runs 2\.4\.0 \(recorded .*\)$/m);

      // A newer cassette than the one replayed blocks again: the candidate never met that traffic.
      const cassette = join(tmp.dir, `acme-newer-${engine}.yaml`);
      copyFileSync(join(cassettes, 'offer-writer.yaml'), cassette);
      const pub = await flis(
        registryCommand,
        ['publish', '--certificate', acmeCertificate, '--cassette', cassette],
        tokens.acme,
      );
      assert.equal(pub.code, 0, pub.err);
      const stale = await flis(canIReleaseCommand, ['2.4.0']);
      assert.equal(stale.code, 1);
      assert.match(
        stale.out,
        /^BLOCKED acme: its latest cassette \(publication \d+ of .*\) was never replayed against 2\.4\.0; the last replay \(run .*\) replayed publication 1; http.*\/reports\/replays\/\d+$/m,
      );

      // An inactive partner is not asked about.
      const off = await flis(registryCommand, ['partner', 'set', 'globex', '--active', 'no']);
      assert.equal(off.code, 0, off.err);
      assert.match(off.out, /globex\tinactive/);
      const without = await flis(canIReleaseCommand, ['2.5.0']);
      assert.ok(!without.out.includes('globex'), without.out);
      await flis(registryCommand, ['partner', 'set', 'globex', '--active', 'yes']);
    });

    it("contract diff names the partners a breaking change touches from the registry's cassettes", async () => {
      const doc = parse(readFileSync(join(ROOT, 'specs/openapi.bundled.yaml'), 'utf8'));
      doc.components.schemas.OfferWrite.required = ['settled'];
      const changed = join(tmp.dir, `changed-${engine}.yaml`);
      writeFileSync(changed, stringify(doc));
      const r = await flis(contractCommand, [
        'diff',
        join(ROOT, 'specs/openapi.bundled.yaml'),
        changed,
        '--report-dir',
        join(tmp.dir, `diff-${engine}`),
      ]);
      assert.equal(r.code, 1, r.out + r.err);
      assert.match(
        r.out,
        /^BREAKING request-field-became-required \w+ .*partners: acme \(http:\/\/127\.0\.0\.1:\d+\/api\/publications\/\d+\/cassette:\d+\), globex \(/m,
      );
    });

    it(`backs up with the command docs/registry.md gives for the ${engine} database`, async () => {
      const counts = await reg.store.counts();
      if (engine === 'embedded') {
        const out = join(tmp.dir, 'backup.db');
        const r = await flis(registryCommand, ['backup', out]);
        assert.equal(r.code, 0, r.err);
        const copy = await openDatabase(out);
        try {
          assert.deepEqual(await new Store(copy).counts(), counts);
        } finally {
          await copy.close();
        }
        return;
      }
      const pg = await testPostgres();
      const dump = join(tmp.dir, 'registry.dump');
      const dumped = spawnSync(join(pg.bin, 'pg_dump'), ['--format=custom', `--file=${dump}`, reg.spec], {
        encoding: 'utf8',
      });
      assert.equal(dumped.status, 0, dumped.stderr);
      const target = await pg.database(`restored_${process.pid}`);
      const restored = spawnSync(join(pg.bin, 'pg_restore'), ['--no-owner', `--dbname=${target}`, dump], {
        encoding: 'utf8',
      });
      assert.equal(restored.status, 0, restored.stderr);
      const copy = await openDatabase(target);
      try {
        assert.deepEqual(await new Store(copy).counts(), counts);
      } finally {
        await copy.close();
      }
      const refused = await flis(registryCommand, ['backup', join(tmp.dir, 'nope.db')]);
      assert.equal(refused.code, 2);
      assert.match(refused.err, /back it up with pg_dump/);
    });
  });
}
