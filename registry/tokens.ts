/**
 * Registry tokens: random, shown once, stored only as their sha256. A partner's token starts with `flisr_p_`, so a
 * cassette that carries one is found by its shape even where its value is unknown (the server keeps hashes only);
 * the admin's is whatever the service team puts in FLIS_REGISTRY_ADMIN_TOKEN.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const PARTNER_TOKEN_PREFIX = 'flisr_p_';
/** A partner token's shape, for the secret scan of uploaded cassettes. */
export const PARTNER_TOKEN_SHAPE = /flisr_p_[A-Za-z0-9_-]{20,}/;

export function mintPartnerToken(): string {
  return `${PARTNER_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
}

export function tokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Compares two hashes in constant time: how long a refusal takes says nothing of how close a guess came. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}
