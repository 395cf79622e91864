/**
 * The records a section 4.3 list answered. Its body is not shown (spec 4.3), so a server may answer a bare array or
 * wrap it (`{"items": [...]}`, `{"data": [...], "next": ...}`): the records are the objects of the array, or of every
 * array the top-level object holds.
 */
type Json = Record<string, unknown>;

const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export function recordsOf(body: unknown): Json[] {
  if (Array.isArray(body)) return body.filter(isRecord);
  if (!isRecord(body)) return [];
  return Object.values(body).flatMap((v) => (Array.isArray(v) ? v.filter(isRecord) : []));
}

/** The status a billing group shows (spec 4.2), when it shows one as a string. */
export function statusOf(body: unknown): string | undefined {
  const s = typeof body === 'object' && body !== null ? (body as { status?: unknown }).status : undefined;
  return typeof s === 'string' ? s : undefined;
}
