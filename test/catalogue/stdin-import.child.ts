/**
 * Child process of stdin-import.test.ts: imports the document on its stdin ('-') into an in-memory
 * PGlite and prints the summary's entity count and the stored counts.
 */
import { openDatabase } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrate.js';
import { countCatalogue, importCatalogue } from '../../src/catalogue/importer.js';

const db = await openDatabase({ engine: 'pglite', dataDir: null });
try {
  await migrate(db);
  const summary = await importCatalogue(db, '-');
  console.log(JSON.stringify({ entities: summary.entities, counts: await countCatalogue(db) }));
} finally {
  await db.close();
}
