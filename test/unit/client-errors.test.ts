import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { failedRequestLine } from '../../src/http/client-errors.js';

const bytes = (s: string) => Buffer.from(s, 'latin1');

describe('failedRequestLine: which request Node failed to parse', () => {
  it('reads the method of a request whose URL overflowed (no line end yet)', () => {
    assert.deepEqual(failedRequestLine(bytes(`HEAD /v1/events?${'a'.repeat(100)}`), 50), { method: 'HEAD', lineEnded: false });
    assert.deepEqual(failedRequestLine(bytes(`GET /v1/events?${'a'.repeat(100)}`), undefined), { method: 'GET', lineEnded: false });
    // Node stops right after the URL when the URL is what overflowed, even with the line's end in the chunk
    const whole = bytes(`GET /x?${'a'.repeat(100)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    assert.deepEqual(failedRequestLine(whole, 107), { method: 'GET', lineEnded: false });
  });

  it('sees an ended request line when the headers overflowed', () => {
    assert.deepEqual(failedRequestLine(bytes(`GET /v1/events HTTP/1.1\r\nX-Big: ${'a'.repeat(100)}`), 80), { method: 'GET', lineEnded: true });
  });

  it('takes the request after the last blank line before the failure (pipelining)', () => {
    const packet = bytes(`GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\nHEAD /v1/events?${'a'.repeat(100)}`);
    assert.deepEqual(failedRequestLine(packet, packet.length - 10), { method: 'HEAD', lineEnded: false });
    // a blank line after the failure point belongs to nothing yet parsed
    const first = bytes(`HEAD /x?${'a'.repeat(50)} HTTP/1.1\r\n\r\nGET /y HTTP/1.1\r\n\r\n`);
    assert.equal(failedRequestLine(first, 20).method, 'HEAD');
  });

  it('knows no method when the chunk does not start a request', () => {
    assert.deepEqual(failedRequestLine(bytes(`X-Big: ${'b'.repeat(100)}`), 90), { method: null, lineEnded: false });
    assert.deepEqual(failedRequestLine(bytes('aaaaaaaaaaaa'), 5), { method: null, lineEnded: false });
    assert.deepEqual(failedRequestLine(undefined, undefined), { method: null, lineEnded: false });
    assert.deepEqual(failedRequestLine(Buffer.alloc(0), 0), { method: null, lineEnded: false });
    assert.equal(failedRequestLine(bytes('head /x HTTP/1.1\r\n'), 3).method, null, 'methods are case-sensitive');
  });
});
