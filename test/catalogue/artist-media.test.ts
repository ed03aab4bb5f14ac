/**
 * Each Artist's public profile media kept on the Artist (migration 004, src/catalogue/artist-media.ts):
 * set by the import, recomputed when an Artist's media list or one of its media changes, equal
 * after every import to the definition evaluated directly (first active, ready media by position);
 * and the media part of its projection hash, alike.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Database } from '../../src/db/database.js';
import { importDoc, pid, storePerSuite, testEngines } from './support.js';

const M = { pending: pid('mpa', 1), ready: pid('mpb', 2), ready2: pid('mpc', 3), inactive: pid('mpd', 4) };
const A = { several: pid('apa', 1), inactiveFirst: pid('apb', 2), pendingOnly: pid('apc', 3), none: pid('apd', 4) };

const media = (publicId: string, status: string, active = true) => ({
  publicId, status, active, src: status === 'ready' ? `https://img.example/${publicId}.jpg` : null,
});
const artist = (publicId: string, profileMediaIds: string[]) => ({ publicId, slug: publicId, name: publicId, profileMediaIds });

function baseDocument() {
  return {
    media: [media(M.pending, 'pending'), media(M.ready, 'ready'), media(M.ready2, 'ready'), media(M.inactive, 'ready', false)],
    artists: [
      artist(A.several, [M.pending, M.ready, M.ready2]),
      artist(A.inactiveFirst, [M.inactive, M.ready2]),
      artist(A.pendingOnly, [M.pending]),
      artist(A.none, []),
    ],
  };
}

async function publicMedia(db: Database): Promise<Record<string, string | null>> {
  const { rows } = await db.pool.query<{ artist: string; media: string | null }>(
    `SELECT a.public_id AS artist, m.public_id AS media FROM artists a LEFT JOIN media m ON m.id = a.public_media_id ORDER BY a.public_id`,
  );
  return Object.fromEntries(rows.map((r) => [r.artist, r.media]));
}

async function assertMatchesDefinition(db: Database): Promise<void> {
  const { rows } = await db.pool.query(
    `SELECT a.public_id FROM artists a
      WHERE a.public_media_id IS DISTINCT FROM (
              SELECT m.id FROM artist_profile_media apm JOIN media m ON m.id = apm.media_id
               WHERE apm.artist_id = a.id AND m.active AND m.status = 'ready'
               ORDER BY apm.position, m.public_id LIMIT 1)`,
  );
  assert.deepEqual(rows, [], 'every Artist holds its public profile media');
  // the media part of its projection hash (merge.ts): every ready profile media's part in position
  // order, as the merge recomputes it from the stored rows for an Artist absent from a document
  const { rows: hashes } = await db.pool.query(
    `SELECT a.public_id FROM artists a
      WHERE split_part(a.projection_hash, ':', 2) IS DISTINCT FROM coalesce((
              SELECT md5(string_agg(coalesce(m.public_part, '-'), ',' ORDER BY apm.position))
                FROM artist_profile_media apm JOIN media m ON m.id = apm.media_id
               WHERE apm.artist_id = a.id AND m.status = 'ready'), '-')`,
  );
  assert.deepEqual(hashes, [], "every Artist's hash holds its ready media");
}

for (const engine of testEngines()) {
  describe(`Artist public profile media (${engine.name})`, () => {
    const store = storePerSuite(engine);

    test('set by the import: the first active, ready media by position', async () => {
      await importDoc(store.db, baseDocument());
      assert.deepEqual(await publicMedia(store.db), {
        [A.several]: M.ready, // the pending one comes first
        [A.inactiveFirst]: M.ready2, // the first one is inactive
        [A.pendingOnly]: null,
        [A.none]: null,
      });
      await assertMatchesDefinition(store.db);
    });

    test('recomputed when a media alone is re-imported, when an Artist changes its media, and by --replace', async () => {
      await importDoc(store.db, baseDocument());
      // a media becomes ready (no Artist in the document)
      await importDoc(store.db, { media: [{ ...media(M.pending, 'ready') }] });
      assert.equal((await publicMedia(store.db))[A.several], M.pending);
      assert.equal((await publicMedia(store.db))[A.pendingOnly], M.pending);
      await assertMatchesDefinition(store.db);
      // media deactivated / activated
      await importDoc(store.db, { media: [media(M.pending, 'ready', false), media(M.inactive, 'ready')] });
      assert.equal((await publicMedia(store.db))[A.several], M.ready);
      assert.equal((await publicMedia(store.db))[A.inactiveFirst], M.inactive);
      assert.equal((await publicMedia(store.db))[A.pendingOnly], null);
      await assertMatchesDefinition(store.db);
      // an Artist's media list changes
      await importDoc(store.db, { artists: [artist(A.none, [M.ready2, M.ready])] });
      assert.equal((await publicMedia(store.db))[A.none], M.ready2);
      await assertMatchesDefinition(store.db);
      // --replace without the ready media
      await importDoc(store.db, { media: [media(M.pending, 'failed'), media(M.ready2, 'ready')], artists: [artist(A.several, [M.pending, M.ready2])] }, { replace: true });
      assert.deepEqual(await publicMedia(store.db), { [A.several]: M.ready2 });
      await assertMatchesDefinition(store.db);
    });
  });
}
