/**
 * Time zone names (spec 2.1: "a time zone name"). A fixed list of long-standing
 * IANA names rather than this machine's ICU list, so a server on an older tz
 * database is never asked about a zone it cannot know. The list covers the
 * extremes: +14:00, -11:00, quarter- and half-hour offsets, half-hour DST.
 */
import fc from 'fast-check';

export const TIME_ZONES = [
  'UTC',
  'Etc/UTC',
  'Etc/GMT+12',
  'Etc/GMT-14',
  'Europe/London',
  'Europe/Berlin',
  'Europe/Helsinki',
  'Europe/Moscow',
  'Africa/Casablanca',
  'Africa/Johannesburg',
  'Asia/Tehran',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Asia/Yangon',
  'Asia/Shanghai',
  'Asia/Tokyo',
  'Australia/Eucla',
  'Australia/Adelaide',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
  'Pacific/Kiritimati',
  'Pacific/Pago_Pago',
  'Pacific/Marquesas',
  'America/St_Johns',
  'America/Sao_Paulo',
  'America/New_York',
  'America/Chicago',
  'America/Los_Angeles',
  'America/Anchorage',
  'Pacific/Honolulu',
] as const;

export const timeZoneArb: fc.Arbitrary<string> = fc.constantFrom(...TIME_ZONES);
