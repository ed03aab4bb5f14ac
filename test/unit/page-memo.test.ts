/** The rendered-page memo (src/present/page-memo.ts): kept only while every input is identical. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PageMemo, rowInputs } from '../../src/present/page-memo.js';
import { renderDetail } from '../../src/present/detail.js';
import { renderBody, weakEtag } from '../../src/present/envelope.js';

describe('PageMemo', () => {
  const counting = () => {
    let renders = 0;
    return {
      get renders() {
        return renders;
      },
      render: (text: string) => () => {
        renders++;
        return renderBody({ ok: true, data: text });
      },
    };
  };

  test('the same inputs give the kept body; a changed value, object or length renders again', () => {
    const memo = new PageMemo(4);
    const c = counting();
    const row = Object.freeze({ name: 'a' });
    const first = memo.render('/v1/events?', [false, 'k', row], c.render('one'));
    assert.equal(memo.render('/v1/events?', [false, 'k', row], c.render('two')), first, 'kept');
    assert.equal(c.renders, 1);
    assert.equal(first.etag, weakEtag(first.body));
    assert.deepEqual(JSON.parse(first.body.toString()), { ok: true, data: 'one' });
    // an equal object that is not the same one (another text was read): rendered again
    const other = memo.render('/v1/events?', [false, 'k', Object.freeze({ name: 'a' })], c.render('three'));
    assert.deepEqual(JSON.parse(other.body.toString()), { ok: true, data: 'three' });
    memo.render('/v1/events?', [true, 'k', row], c.render('four'));
    memo.render('/v1/events?', [true, 'k', row, 'x'], c.render('five'));
    assert.equal(c.renders, 4);
    // and the newest rendering is the one kept
    assert.deepEqual(JSON.parse(memo.render('/v1/events?', [true, 'k', row, 'x'], c.render('six')).body.toString()).data, 'five');
  });

  test('pages with unlisted inputs are rendered every time and never kept', () => {
    const memo = new PageMemo(4);
    const c = counting();
    memo.render('/v1/events?include=artists', null, c.render('one'));
    memo.render('/v1/events?include=artists', null, c.render('two'));
    assert.equal(c.renders, 2);
    assert.equal(memo.size, 0);
  });

  test('a rendering that fails (an invalid stored projection) is not kept', () => {
    const memo = new PageMemo(4);
    const fail = () => {
      throw new Error('invalid projection');
    };
    assert.throws(() => memo.render('/v1/events?', ['x'], fail), /invalid projection/);
    assert.throws(() => memo.render('/v1/events?', ['x'], fail), /invalid projection/);
    assert.equal(memo.size, 0);
  });

  test('bounded: the oldest page goes first', () => {
    const memo = new PageMemo(2);
    const c = counting();
    for (const key of ['a', 'b', 'c']) memo.render(key, [key], c.render(key));
    assert.equal(memo.size, 2);
    memo.render('b', ['b'], c.render('b'));
    memo.render('c', ['c'], c.render('c'));
    assert.equal(c.renders, 3, 'b and c kept');
    memo.render('a', ['a'], c.render('a'));
    assert.equal(c.renders, 4, 'a was dropped');
  });
});

describe('rowInputs', () => {
  const shared = Object.freeze({ text: 'shared' });
  const same = (a: unknown[] | null, b: unknown[] | null) => a !== null && b !== null && a.length === b.length && a.every((v, i) => v === b[i]);

  test('primitives and shared frozen values as they are; JSON parsed anew by its text', () => {
    const row = () => ({ name: 'A', n: 1, none: null, own: shared, links: JSON.parse('[{"url":"https://a.example/","label":"A"}]') as unknown, meta: JSON.parse('{"k":[1,2]}') as unknown });
    assert.ok(same(rowInputs(false, [row()]), rowInputs(false, [row()])), 'equal JSON read twice: equal inputs');
    assert.ok(!same(rowInputs(false, [row()]), rowInputs(true, [row()])), 'hasMore counts');
    const changed = { ...row(), links: JSON.parse('[{"url":"https://b.example/","label":"A"}]') as unknown };
    assert.ok(!same(rowInputs(false, [row()]), rowInputs(false, [changed])), 'other JSON: other inputs');
    // a text column whose value is a JSON value's text is not that JSON value
    const asText = { ...row(), links: JSON.stringify(row().links) };
    assert.ok(!same(rowInputs(false, [row()]), rowInputs(false, [asText])));
    assert.ok(!same(rowInputs(false, [{ a: 'x' }, { a: 'y' }]), rowInputs(false, [{ a: 'x' }])), 'row count counts');
  });

  test('any other object that is not shared and frozen: null (never kept)', () => {
    class Wrapped {
      constructor(readonly value: string) {}
    }
    assert.equal(rowInputs(false, [{ a: new Wrapped('x') }]), null);
    assert.equal(rowInputs(false, [{ a: new Date(0) }]), null);
    assert.equal(rowInputs(false, [{ a: Buffer.from('x') }]), null);
    assert.notEqual(rowInputs(false, [{ a: Object.create(null) as object }]), null);
  });
});

describe('renderDetail', () => {
  test('kept per URL while the row read is the same; another row or URL is rendered again; a failing projection is not kept', () => {
    let presented = 0;
    const present = (row: { name: string; links: unknown }) => (presented++, { name: row.name, links: row.links });
    const row = (name: string) => ({ name, links: JSON.parse('[{"url":"https://a.example/"}]') as unknown });
    const first = renderDetail('/v1/venues/a', row('A'), present);
    assert.equal(renderDetail('/v1/venues/a', row('A'), present), first, 'the kept body, the row read anew');
    assert.equal(presented, 1);
    assert.notEqual(renderDetail('/v1/venues/a', row('B'), present).etag, first.etag);
    renderDetail('/v1/venues/a?fields=name', row('B'), present);
    assert.equal(presented, 3);
    const failing = () => {
      presented++;
      throw new Error('invalid stored projection');
    };
    assert.throws(() => renderDetail('/v1/venues/b', row('C'), failing));
    assert.throws(() => renderDetail('/v1/venues/b', row('C'), failing));
    assert.equal(presented, 5, 'rendered (and refused) on every read');
  });
});
