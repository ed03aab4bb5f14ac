/**
 * A page of current alone checks the phase rule once, on its parts' merged candidates, which
 * carry only the rule's inputs (queries/current-candidates.ts): PHASE_INPUTS must name every
 * column the rule reads, or that page fails on a column its parts do not output.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PHASE_INPUTS, phaseSql } from '../../src/queries/phase.js';

test('PHASE_INPUTS are exactly the columns the phase rule and its basis read', () => {
  const { phase, basis } = phaseSql('x', '$1::timestamptz');
  const read = new Set([...`${phase} ${basis}`.matchAll(/\bx\.([a-z_]+)/g)].map((m) => m[1]));
  assert.deepEqual([...read].sort(), [...PHASE_INPUTS].sort());
});
