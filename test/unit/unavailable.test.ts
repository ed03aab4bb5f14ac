/**
 * Which database failures are unavailability (503) and which are defects (500)
 * (src/db/unavailable.ts), on the error values pg produces: pg-protocol's DatabaseError for the
 * server's ErrorResponse (its SQLSTATE and severity), Node's system errors for the socket.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DatabaseError } from 'pg-protocol';
import { DatabaseUnavailableError } from '../../src/db/errors.js';
import { connectionFailed, isUnavailable } from '../../src/db/unavailable.js';

function serverError(code: string, severity: string, message = 'from the server'): DatabaseError {
  const err = new DatabaseError(message, message.length, 'error');
  err.code = code;
  err.severity = severity;
  return err;
}

const systemError = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code });

describe('isUnavailable', () => {
  test('the server refusing or ending the session is unavailability', () => {
    const cases: Array<[string, string]> = [
      ['57P01', 'terminating connection due to administrator command'],
      ['57P02', 'terminating connection because of crash of another server process'],
      ['57P03', 'the database system is starting up'],
      ['53300', 'too many connections for role "lineup"'],
      ['28P01', 'password authentication failed for user "lineup"'],
      ['28000', 'no pg_hba.conf entry for host "127.0.0.1"'],
      ['3D000', 'database "lineup" does not exist'],
      ['08006', 'connection failure'],
    ];
    for (const [code, message] of cases) assert.equal(isUnavailable(serverError(code, 'FATAL', message)), true, code);
  });

  test('any FATAL ends the session: unavailability, whatever its SQLSTATE', () => {
    // 55000: 'database "lineup" is not currently accepting connections' (ALLOW_CONNECTIONS false)
    assert.equal(isUnavailable(serverError('55000', 'FATAL')), true);
    assert.equal(isUnavailable(serverError('XX000', 'PANIC')), true);
  });

  test("a statement's own error stays an error (a defect: 500)", () => {
    for (const code of ['42P01', '42703', '22P02', '55000', '25006']) assert.equal(isUnavailable(serverError(code, 'ERROR')), false, code);
  });

  test('timeouts and lock waits are unavailability', () => {
    assert.equal(isUnavailable(serverError('57014', 'ERROR', 'canceling statement due to statement timeout')), true);
    assert.equal(isUnavailable(serverError('55P03', 'ERROR', 'canceling statement due to lock timeout')), true);
  });

  test('socket and name-resolution failures are unavailability', () => {
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']) {
      assert.equal(isUnavailable(systemError(code)), true, code);
    }
  });

  test("pg's own messages for a lost or closed connection are unavailability", () => {
    for (const message of [
      'Connection terminated unexpectedly',
      'Connection terminated due to connection timeout',
      'timeout exceeded when trying to connect',
      'Client has encountered a connection error and is not queryable',
      'Client was closed and is not queryable',
    ]) {
      assert.equal(isUnavailable(new Error(message)), true, message);
    }
  });

  test('anything else is not', () => {
    assert.equal(isUnavailable(new TypeError("Cannot read properties of undefined (reading 'rows')")), false);
    assert.equal(isUnavailable('57P01'), false, 'not an Error');
  });
});

describe('connectionFailed', () => {
  test('every failure to get a connection becomes DatabaseUnavailableError, naming its cause', () => {
    const failures = [serverError('55000', 'FATAL', 'database "lineup" is not currently accepting connections'), systemError('ENOTFOUND'), new Error('SASL: SCRAM-SERVER-FIRST-MESSAGE: client password must be a string')];
    for (const err of failures) {
      const unavailable = connectionFailed(err);
      assert.ok(unavailable instanceof DatabaseUnavailableError);
      assert.ok(unavailable.message.includes(err.message), unavailable.message);
    }
    assert.match(connectionFailed(failures[0]).message, /\(55000\)$/);
  });

  test('a DatabaseUnavailableError is passed on as it is', () => {
    const err = new DatabaseUnavailableError('already');
    assert.equal(connectionFailed(err), err);
  });
});
