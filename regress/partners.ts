/**
 * The partners of a regress run: one per cassette of a directory, named by the
 * cassette header's `partner` field (or its `partner` label, as
 * `flis record --label partner=NAME` writes it), else by the file name. Every
 * cassette is read through once before anything is sent, so a cassette that
 * does not parse stops the run with its file and line, not halfway. Shards
 * split the partners, sorted by name, into contiguous blocks, as Playwright
 * splits tests: the same partner always lands in the same shard.
 */
import { readdirSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { UsageError } from '../errors/flis-error.ts';
import { fileParts, parseExchange, walkCassette } from '../recorder/cassette-reader.ts';
import type { PartnerCassette } from './replay-partner.ts';

const CASSETTE = /\.ya?ml$/i;

export interface Shard {
  index: number;
  total: number;
}

/** `I/N` with 1 ≤ I ≤ N. */
export function parseShard(raw: string | undefined): Shard | undefined {
  if (raw === undefined) return undefined;
  const m = /^(\d+)\/(\d+)$/.exec(raw.trim());
  const index = Number(m?.[1]);
  const total = Number(m?.[2]);
  if (!m || total < 1 || index < 1 || index > total)
    throw new UsageError(`--shard must be I/N with 1 <= I <= N (e.g. 1/3); got '${raw}'`);
  return { index, total };
}

export function shardOf<T>(items: T[], shard: Shard | undefined): T[] {
  if (!shard) return items;
  const from = Math.floor(((shard.index - 1) * items.length) / shard.total);
  const to = Math.floor((shard.index * items.length) / shard.total);
  return items.slice(from, to);
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
 * CassetteParseError names the file and line before anything is sent. A reader that walks every exchange anyway
 * (contract diff) passes false and meets the same error in its own pass.
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
  const files = names.map((n) => join(dir, n)).filter((f) => statSync(f).isFile());
  if (files.length === 0)
    throw new UsageError(`--cassettes ${dir} holds no cassette (*.yaml or *.yml); record one with 'flis record'`);
  const byName = new Map<string, string>();
  const out: PartnerCassette[] = [];
  for (const file of files) {
    if (parse)
      walkCassette(file, fileParts(file), { allowTorn: true }, (doc) => {
        parseExchange(file, doc);
      });
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
