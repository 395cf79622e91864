/**
 * The partners of a regress run: one per cassette of a directory, named by the
 * cassette header's `partner` field (or its `partner` label, as
 * `flis record --label partner=NAME` writes it), else by the file name. Every
 * cassette is read through once before anything is sent, so a cassette that
 * does not parse stops the run with its file and line, not halfway. Shards
 * split the partners, sorted by name, into contiguous blocks, as Playwright
 * splits tests: the same partner always lands in the same shard.
 */
import { closeSync, readdirSync, statSync } from 'node:fs';
import { setImmediate } from 'node:timers/promises';
import { basename, extname, join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { UsageError } from '../errors/flis-error.ts';
import { openRegular, unreadableWhy } from '../errors/user-file.ts';
import { fileParts, parseExchange, walkCassetteSteps } from '../recorder/cassette-reader.ts';
import type { PartnerCassette } from './replay-partner.ts';

const CASSETTE = /\.ya?ml$/i;

export interface Shard {
  index: number;
  total: number;
}

export function shardOf<T>(items: T[], shard: Shard | undefined): T[] {
  if (!shard) return items;
  const from = Math.floor(((shard.index - 1) * items.length) / shard.total);
  const to = Math.floor((shard.index * items.length) / shard.total);
  return items.slice(from, to);
}

/** Every exchange of a cassette parsed (nothing kept), as steps that pause between its documents. */
function readThrough(file: string): Generator<void, unknown, void> {
  return walkCassetteSteps(file, fileParts(file), { allowTorn: true }, (doc) => {
    parseExchange(file, doc);
  });
}

/** Between two pauses for the event loop while the cassettes are read through: a signal is answered this soon. */
const TURN_MS = 50;

/**
 * Every partner's cassette parsed through before anything is sent, handing the event loop a turn every TURN_MS so a
 * SIGINT or SIGTERM is heard while a large cassette is read. False when `stopped` said so.
 */
export async function readPartnersThrough(partners: PartnerCassette[], stopped: () => boolean): Promise<boolean> {
  let turn = performance.now();
  for (const p of partners) {
    const steps = readThrough(p.file);
    while (!steps.next().done) {
      if (performance.now() - turn < TURN_MS) continue;
      await setImmediate();
      if (stopped()) return false;
      turn = performance.now();
    }
  }
  await setImmediate();
  return !stopped();
}

/** The header's `partner` field, else its `partner` label (the strict header reader keeps only the format's fields). */
function partnerOfHeader(file: string): string | undefined {
  for (const part of fileParts(file)) {
    if (part.kind !== 'document') return undefined;
    const h: unknown = parseYaml(part.bytes.toString('utf8'));
    if (!h || typeof h !== 'object') return undefined;
    const { partner, labels } = h as { partner?: unknown; labels?: { partner?: unknown } };
    const name = typeof partner === 'string' ? partner : typeof labels?.partner === 'string' ? labels.partner : '';
    return name.trim() || undefined;
  }
  return undefined;
}

/**
 * Every cassette of `dir` with its partner's name. With `parse` (the default), each is parsed through first: a
 * CassetteParseError names the file and line before anything is sent (`flis regress` does this with
 * readPartnersThrough, to answer a signal meanwhile). A reader that walks every exchange anyway (contract diff)
 * passes false and meets the same error in its own pass. An entry named like a cassette that is no regular file
 * (a named pipe, a device, a folder, a link to nothing) is refused, as every file a user names is
 * (errors/user-file.ts).
 */
export function findPartners(dir: string, parse = true): PartnerCassette[] {
  let names: string[];
  try {
    if (!statSync(dir).isDirectory()) throw new UsageError(`--cassettes ${dir} is not a directory`);
    names = readdirSync(dir)
      .filter((n) => CASSETTE.test(n))
      .sort();
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`--cassettes ${dir}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
  const files = names.map((n) => join(dir, n));
  for (const f of files) {
    const o = openRegular(f);
    if ('fd' in o) closeSync(o.fd);
    else throw new UsageError(`--cassettes ${dir}: ${basename(f)} is not a cassette: ${unreadableWhy(o)}`);
  }
  if (files.length === 0)
    throw new UsageError(`--cassettes ${dir} holds no cassette (*.yaml or *.yml); record one with 'flis record'`);
  const byName = new Map<string, string>();
  const out: PartnerCassette[] = [];
  for (const file of files) {
    if (parse) for (const steps = readThrough(file); !steps.next().done; );
    const partner = partnerOfHeader(file) ?? basename(file, extname(file));
    const other = byName.get(partner);
    if (other)
      throw new UsageError(
        `two cassettes claim partner '${partner}': ${other} and ${file}; give each its own partner name`,
      );
    byName.set(partner, file);
    out.push({ partner, file });
  }
  return out.sort((a, b) => a.partner.localeCompare(b.partner));
}
