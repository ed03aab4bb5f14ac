/**
 * The documented query parameters (OPERATIONS, the source of openapi.json) are exactly the ones
 * each route accepts: a documented name is recognized (an empty value is refused as empty, not as
 * unknown) and an undocumented one is refused as unknown — so the contract and the parsers
 * cannot drift apart.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { OPERATIONS } from '../../src/http/openapi.js';
import { engines, serveForSuite } from '../helper.js';

const engine = engines()[0]!; // the documented parameters do not depend on the database engine
const SOME_ID = 'aaaaaaaaaaaa';

describe('documented parameters = accepted parameters', () => {
  const suite = serveForSuite(engine);

  for (const op of OPERATIONS) {
    it(`${op.path}`, async () => {
      const path = op.path.replace(/:[A-Za-z]+/g, SOME_ID);
      for (const p of op.parameters.filter((x) => x.in === 'query')) {
        const res = await suite.server.json(`${path}?${p.name}=`);
        assert.equal(res.status, 400, `${op.path} ${p.name}`);
        const detail = res.body.error.details.find((d: { parameter: string }) => d.parameter === p.name);
        assert.ok(detail, `${op.path}: no detail for ${p.name}`);
        assert.doesNotMatch(detail.message, /unknown parameter/, `${op.path}: ${p.name} is documented but not accepted`);
      }
      const unknown = await suite.server.json(`${path}?undocumentedParameter=1`);
      assert.equal(unknown.status, 400, op.path);
      if (op.kind !== 'operational') {
        const detail = unknown.body.error.details.find((d: { parameter: string }) => d.parameter === 'undocumentedParameter');
        assert.match(detail?.message ?? '', /unknown parameter/);
      }
    });
  }
});
