/**
 * The stages below HTTP raise domain errors; the HTTP layer alone gives each its status, type
 * and message, and says what it is for the log (a statement budget exceeded is a programming
 * error, not stored data the projection refused).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidQuery, ResourceNotFound, UrlTooLong } from '../../src/controls/errors.js';
import { DatabaseUnavailableError } from '../../src/db/errors.js';
import { StatementDeadlineError } from '../../src/db/reader.js';
import { INTERNAL_MESSAGE, MAX_DETAILS, publicError } from '../../src/http/errors.js';
import { BudgetExceededError } from '../../src/limits/admission.js';
import { ReadSlotsFullError } from '../../src/limits/reads.js';
import { ProjectionError } from '../../src/present/errors.js';

const mapped = (err: unknown) => {
  const { kind, error } = publicError(err);
  return { kind, status: error.status, type: error.type, message: error.message };
};

describe('publicError: domain errors → HTTP refusals', () => {
  it('invalid query keeps its message and at most MAX_DETAILS details plus a summary', () => {
    const details = Array.from({ length: MAX_DETAILS + 3 }, (_, i) => ({ parameter: `p${i}`, message: 'bad' }));
    const { kind, error } = publicError(new InvalidQuery('The query string is malformed.', details));
    assert.equal(kind, 'refusal');
    assert.deepEqual([error.status, error.type, error.message], [400, 'invalid_query', 'The query string is malformed.']);
    assert.equal(error.details.length, MAX_DETAILS + 1);
    assert.deepEqual(error.details.at(-1), { parameter: '*', message: '3 more problems not listed' });
  });

  it('URL budget, missing resource and full read slots are refusals', () => {
    assert.deepEqual(mapped(new UrlTooLong()), {
      kind: 'refusal',
      status: 414,
      type: 'invalid_query',
      message: 'The request URL is too long (at most 4,096 bytes, including room for a continuation cursor).',
    });
    assert.deepEqual(mapped(new ResourceNotFound()), { kind: 'refusal', status: 404, type: 'not_found', message: 'No resource exists at this address.' });
    assert.deepEqual(mapped(new ReadSlotsFullError('x')), { kind: 'refusal', status: 503, type: 'unavailable', message: 'The database is busy; retry shortly.' });
    assert.equal(publicError(new ReadSlotsFullError('x')).error.headers['Retry-After'], '1');
  });

  it('database unavailability (a deadline included) is a 503 of its own kind', () => {
    for (const err of [new DatabaseUnavailableError('gone'), new StatementDeadlineError('late')]) {
      assert.deepEqual(mapped(err), {
        kind: 'unavailable',
        status: 503,
        type: 'unavailable',
        message: 'The database is temporarily unavailable; retry later.',
      });
    }
  });

  it('stored data, a budget overrun and the unknown are sanitized 500s, each told apart for the log', () => {
    const internal = { status: 500, type: 'internal_error', message: INTERNAL_MESSAGE };
    assert.deepEqual(mapped(new ProjectionError('invalid stored projection: x')), { kind: 'stored-data', ...internal });
    assert.deepEqual(mapped(new BudgetExceededError(8)), { kind: 'programming', ...internal });
    assert.deepEqual(mapped(new Error('boom')), { kind: 'unknown', ...internal });
  });

  it("Fastify's own 4xx are refusals: 414 keeps its status, any other is a malformed request", () => {
    assert.equal(mapped(Object.assign(new Error('x'), { statusCode: 414 })).status, 414);
    assert.deepEqual(mapped(Object.assign(new Error('x'), { statusCode: 415 })), {
      kind: 'refusal',
      status: 400,
      type: 'invalid_query',
      message: 'The request is malformed.',
    });
  });
});
