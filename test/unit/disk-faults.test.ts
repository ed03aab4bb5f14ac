/**
 * The CLI's messages for a full disk and a store that cannot open or stops answering: each names
 * the cause and the folder or setting to free; an error that is not about space gets none. Pure
 * functions: they do not depend on the database engine under test.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TempSpaceError } from '../../src/catalogue/temp-files.js';
import { diskFaultMessage, LOW_SPACE_BYTES, stalledMessage, storeOpenMessage } from '../../src/db/disk-faults.js';

const postgres = { engine: 'postgres', url: 'postgresql://app@db/app' } as const;
const pglite = { engine: 'pglite', dataDir: '/srv/lineup/store' } as const;
const diskFull = Object.assign(new Error('could not extend file "base/5/16477": No space left on device'), { code: '53100' });

describe('disk fault messages', () => {
  test('PostgreSQL 53100: names PostgreSQL, the SQLSTATE, its message and what to free', () => {
    const m = diskFaultMessage(diskFull, postgres, null)!;
    assert.match(m, /^PostgreSQL ran out of disk \(53100: could not extend file "base\/5\/16477": No space left on device\)/);
    assert.match(m, /free space on the database server/);
    assert.match(m, /the previous catalogue is kept/);
  });

  test('53100 on a PGlite store: names the store folder and the space left there', () => {
    const m = diskFaultMessage(diskFull, pglite, 3 * 1024 * 1024)!;
    assert.match(m, /^the PGlite store \/srv\/lineup\/store is full \(3\.0 MB free there/);
    assert.match(m, /free space there or move the store/);
  });

  test('TMPDIR full: names TMPDIR and its path', () => {
    const err = new TempSpaceError('/var/tmp/x', Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }));
    const m = diskFaultMessage(err, postgres, null)!;
    assert.match(m, /^no space left in TMPDIR \(\/var\/tmp\/x\)/);
    assert.match(m, /point TMPDIR elsewhere/);
  });

  test('an error that is not about space: no message', () => {
    assert.equal(diskFaultMessage(Object.assign(new Error('x'), { code: '57P01' }), postgres, null), null);
    assert.equal(diskFaultMessage(new Error('x'), pglite, 0), null);
  });

  test('a store that cannot open or stopped: full when little space is left, not otherwise', () => {
    assert.match(storeOpenMessage(pglite.dataDir, 'PGlite failed to initialize properly', LOW_SPACE_BYTES - 1), /likely cause: the PGlite store \/srv\/lineup\/store is full/);
    assert.doesNotMatch(storeOpenMessage(pglite.dataDir, 'PGlite failed to initialize properly', LOW_SPACE_BYTES * 10), /is full/);
    assert.match(stalledMessage(pglite, 0), /PGlite store \/srv\/lineup\/store stopped without answering: the PGlite store \/srv\/lineup\/store is full/);
    assert.doesNotMatch(stalledMessage(pglite, null), /is full/);
  });
});
