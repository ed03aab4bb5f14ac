/**
 * The examples of openapi.json: every GET operation shows its 200 answer and one refusal, each
 * valid against that operation's own response schema, and they are what the service answers over
 * the demo catalogue today (src/http/reference/examples.ts; regenerate with `npm run openapi`).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { examplesModule, generateExamples } from '../../src/http/reference/examples.js';
import { schemaErrors } from './validate.js';

const committed = JSON.parse(readFileSync('openapi.json', 'utf8'));
const gets = Object.entries<any>(committed.paths).map(([path, item]) => ({ path, op: item.get }));

interface Shown {
  readonly status: string;
  readonly mediaType: string;
  readonly schema: object;
  readonly examples: Record<string, { value: unknown; description: string }>;
}

function shown(op: any): Shown[] {
  return Object.entries<any>(op.responses).flatMap(([status, response]) =>
    Object.entries<any>(response.content ?? {})
      .filter(([, media]) => media.examples !== undefined)
      .map(([mediaType, media]) => ({ status, mediaType, schema: media.schema, examples: media.examples })),
  );
}

describe('the examples of openapi.json', () => {
  it('every GET operation shows its 200 answer and one refusal', () => {
    assert.equal(gets.length, 22);
    for (const { path, op } of gets) {
      const statuses = shown(op).map((s) => s.status);
      assert.ok(statuses.includes('200'), `${op.operationId}: a 200 example`);
      assert.ok(statuses.some((s) => Number(s) >= 400), `${op.operationId}: a refusal's example`);
      for (const s of shown(op)) {
        for (const example of Object.values(s.examples)) {
          // the request that answered it is one of this operation's paths
          const requested = new URL(example.description.replace(/^GET /, ''), 'http://x').pathname;
          const template = new RegExp(`^${path.replace(/\{[A-Za-z]+\}/g, '[^/]+')}$`);
          assert.match(requested, template, `${op.operationId} ${s.status}: ${example.description}`);
        }
      }
    }
  });

  it("every example is valid against its operation's own response schema", () => {
    let checked = 0;
    for (const { op } of gets) {
      for (const s of shown(op)) {
        for (const [name, example] of Object.entries(s.examples)) {
          assert.equal(schemaErrors(s.schema, example.value), null, `${op.operationId} ${s.status} ${s.mediaType} ${name}`);
          checked++;
        }
      }
    }
    assert.equal(checked, 44);
  });

  it('a refusal example is the error envelope of its status', () => {
    const types: Record<string, string> = { 400: 'invalid_query', 404: 'not_found' };
    for (const { op } of gets) {
      for (const s of shown(op).filter((x) => x.status !== '200')) {
        for (const [name, example] of Object.entries(s.examples)) {
          const value = example.value as { ok: boolean; error: { type: string } };
          assert.equal(value.ok, false);
          assert.equal(value.error.type, types[s.status], `${op.operationId} ${s.status}`);
          assert.equal(name, value.error.type);
        }
      }
    }
  });

  it('the list examples hold one or two items', () => {
    for (const { op } of gets) {
      const value = op.responses[200].content['application/json']?.examples.demo.value;
      if (Array.isArray(value?.data)) assert.ok(value.data.length >= 1 && value.data.length <= 2, `${op.operationId}: ${value.data.length} items`);
    }
  });

  it('they are what the service answers over the demo catalogue (npm run openapi regenerates them)', { timeout: 600_000 }, async () => {
    const fresh = examplesModule(await generateExamples());
    assert.equal(fresh, readFileSync('src/http/reference/examples.generated.ts', 'utf8'));
  });
});
