/** The rendered-page memo (src/present/page-memo.ts): kept only while every input is identical. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PageMemo } from '../../src/present/page-memo.js';
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
