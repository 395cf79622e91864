/** Synthetic outcomes for the reporting tests: a few checks over real operations of the contract. */
import type { FailureRecord } from '../../core/check-failure.ts';
import type { CheckOutcome } from '../../reporting/outcomes.ts';

export const SECRET = 'tok-reporting-Zx81-secret-value';

export function failureRecord(over: Partial<FailureRecord> = {}): FailureRecord {
  return {
    check: 'response-schema',
    clause: 'spec 4.1, spec 2.2',
    operationId: 'getOffer',
    method: 'get',
    path: '/offers/{offerId}',
    message: 'response does not match offer-list.schema.json: /0/quantity must be number',
    pointer: '/0/quantity',
    schemaPath: 'offer.schema.json#/properties/quantity/type',
    exchanges: [
      {
        request: {
          method: 'GET',
          url: 'http://127.0.0.1:1/apis/v0/offers/x',
          headers: { authorization: 'Bearer [REDACTED]' },
        },
        response: {
          status: 200,
          headers: { 'content-type': 'application/json' },
          body: [{ quantity: '3' }],
          text: '[{"quantity":"3"}] <script>alert(1)</script>',
          durationMs: 2,
        },
      },
    ],
    curl: [`curl -sS -i -X GET 'http://127.0.0.1:1/apis/v0/offers/x' -H "Authorization: Bearer $FLIS_TOKEN"`],
    ...over,
  };
}

export function outcome(over: Partial<CheckOutcome> & Pick<CheckOutcome, 'id' | 'status'>): CheckOutcome {
  return {
    title: `test ${over.id}`,
    project: 'contract',
    blamed: [],
    exercised: [],
    check: 'response-schema',
    clause: 'spec 4.1',
    severity: 'contract',
    ...over,
  };
}

/** A run: one test passing over three operations, one failing on getOffer, one skipped, one advisory-only failure. */
export function sampleOutcomes(): CheckOutcome[] {
  return [
    outcome({
      id: 'a',
      status: 'passed',
      check: 'auth-required',
      clause: 'spec 5 rule 2',
      exercised: ['listOffers', 'getOffer', 'getBooking'],
    }),
    outcome({
      id: 'b',
      status: 'failed',
      operation: 'getOffer',
      blamed: ['getOffer'],
      exercised: ['getOffer', 'listOffers'],
      record: failureRecord(),
    }),
    outcome({
      id: 'c',
      status: 'skipped',
      operation: 'createOffer',
      skipReason: 'writes are not allowed against production-1 (pass --allow-writes)',
    }),
    outcome({
      id: 'd',
      status: 'passed',
      check: 'billing-forced-status',
      clause: 'spec 3 rules 1-2',
      operation: 'forceBillingGroupStatus',
      exercised: ['forceBillingGroupStatus', 'removeBillingGroupStatus'],
    }),
  ];
}
