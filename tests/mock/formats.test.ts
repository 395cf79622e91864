/** The mock's date and date-time checks agree with the schemas' (ajv-formats) on the values that matter. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dateStartMs, dateTimeMs, isDate, isDateTime } from '../../mock/formats.ts';
import { validate } from '../../schemas/registry.ts';

const dateTimes = [
  '2025-01-02T03:04:05Z',
  '2025-01-02T03:04:05.123456Z',
  '2025-01-02t03:04:05z',
  '2025-01-02 03:04:05Z',
  '2025-01-02T03:04:05+01:00',
  '2025-01-02T03:04:05-0130',
  '2025-01-02T03:04:05+01',
  '2024-02-29T00:00:00Z',
  '2025-02-29T00:00:00Z',
  '2025-01-02T03:04:05',
  '2025-01-02',
  '2025-13-02T03:04:05Z',
  '2025-01-32T03:04:05Z',
  '2025-01-02T24:00:00Z',
  '2025-01-02T03:60:00Z',
  '2016-12-31T23:59:60Z',
  '2016-12-31T22:59:60-01:00',
  '2025-01-02T12:59:60Z',
  'yesterday',
  '',
  '2025-01-02T03:04:05+24:00',
  '0001-01-01T00:00:00Z',
  '9999-12-31T23:59:59.999Z',
];

const dates = [
  '2025-01-02',
  '2024-02-29',
  '2025-02-29',
  '2025-1-2',
  '2025-00-10',
  '2025-12-31',
  '2025-01-02T00:00:00Z',
  '20250102',
  '0000-01-01',
];

describe('formats', () => {
  it('isDateTime agrees with the date-time format of the schemas', () => {
    for (const value of dateTimes) {
      const ajv = validate('offer-write-offer', { transportTimestamp: value }).valid;
      assert.equal(isDateTime(value), ajv, value);
    }
  });

  it('isDate agrees with the date format of the schemas', () => {
    for (const value of dates) {
      const ajv = validate('billing-group-details', { date: value }).violations.every((v) => v.pointer !== '/date');
      assert.equal(isDate(value), ajv, value);
    }
  });

  it('turns date-times into the same instant Date does, offsets included', () => {
    for (const value of ['2025-01-02T03:04:05Z', '2025-01-02T03:04:05.250+01:00', '2025-06-30T23:00:00-05:30'])
      assert.equal(dateTimeMs(value), Date.parse(value), value);
    assert.equal(dateTimeMs('2025-01-02T03:04:05+0100'), Date.parse('2025-01-02T02:04:05Z'));
    assert.equal(
      dateTimeMs('2016-12-31T23:59:60Z'),
      Date.parse('2016-12-31T23:59:59.999Z'),
      'a leap second sorts last in its minute',
    );
  });

  it('the start of a date is midnight UTC, also for years below 100', () => {
    assert.equal(dateStartMs('2025-03-04'), Date.parse('2025-03-04T00:00:00Z'));
    assert.equal(new Date(dateStartMs('0042-01-01') ?? NaN).getUTCFullYear(), 42);
  });
});
