/** The CI gates: each has its own exit code, and a failed check outranks them. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildCertificate } from '../../reporting/certificate.ts';
import { buildDriftReport } from '../../reporting/drift.ts';
import { evaluateGates, exitCodeWithGates, GATE_EXIT } from '../../reporting/gates.ts';
import { emptyObservations, observe } from '../../core/observations.ts';
import { parseGates } from '../../cli/gate-options.ts';
import { FlisError } from '../../errors/flis-error.ts';
import { sampleOutcomes } from './fixtures.ts';

const cert = buildCertificate({
  run: { outcomes: sampleOutcomes(), errors: [] },
  subject: { deployment: 'embedded', baseUrl: 'http://127.0.0.1:1/apis/v0' },
  facts: { seed: 1, runId: 'r', suites: 'all', allowWrites: true },
});

function driftWith(extraField: boolean) {
  const obs = emptyObservations();
  observe(obs, {
    operationId: 'getBillingGroup',
    status: 200,
    responseBody: { status: 'Booked', ...(extraField ? { tenantId: 't' } : {}) },
  });
  return buildDriftReport(obs);
}

describe('gates', () => {
  it('coverage below --min-coverage exits 3; at or above passes', () => {
    const low = evaluateGates(cert, undefined, { minCoverage: 50 });
    assert.equal(low[0]?.passed, false);
    assert.equal(exitCodeWithGates(0, low), GATE_EXIT.coverage);
    assert.equal(exitCodeWithGates(0, evaluateGates(cert, undefined, { minCoverage: 4 })), 0);
  });

  it('drift with --fail-on drift exits 4; without the flag drift is only reported', () => {
    const drift = driftWith(true);
    assert.ok(drift.counts['undocumented-field'] > 0);
    assert.equal(exitCodeWithGates(0, evaluateGates(cert, drift, { failOn: ['drift'] })), GATE_EXIT.drift);
    assert.equal(exitCodeWithGates(0, evaluateGates(cert, drift, {})), 0);
  });

  it('a failed check (1) outranks a failed gate; the lower gate code wins between gates', () => {
    const both = evaluateGates(cert, driftWith(true), { minCoverage: 99, failOn: ['drift'] });
    assert.equal(exitCodeWithGates(1, both), 1);
    assert.equal(exitCodeWithGates(0, both), GATE_EXIT.coverage);
  });

  it('rejects a bad percentage or an unknown --fail-on value as usage errors', () => {
    assert.throws(
      () => parseGates({ 'min-coverage': '140' }),
      (e: unknown) => e instanceof FlisError && e.code === 'FLIS_ERR_USAGE',
    );
    assert.throws(
      () => parseGates({ 'fail-on': ['flakes'] }),
      (e: unknown) => e instanceof FlisError && e.code === 'FLIS_ERR_USAGE',
    );
    assert.deepEqual(parseGates({ 'min-coverage': '80%', 'fail-on': ['drift'] }), {
      minCoverage: 80,
      failOn: ['drift'],
    });
  });
});
