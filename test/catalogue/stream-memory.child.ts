/**
 * Child process of demo.test.ts, run under a small --max-old-space-size: streams a generated
 * document far larger than that heap through the reader and the validator (no database) and
 * prints the number of entities read. Holding the document in memory would crash it.
 */
import { ProblemList } from '../../src/catalogue/document.js';
import { demoCatalogue } from '../../src/catalogue/demo.js';
import { stageRow } from '../../src/catalogue/rows.js';
import { readDocument } from '../../src/catalogue/stream.js';
import { validateEntity } from '../../src/catalogue/validate.js';

const events = Number(process.argv[2] ?? 40000);
const problems = new ProblemList();
let entities = 0;
let bytes = 0;
const source = demoCatalogue({ events, seed: 'memory', anchorDate: '2026-01-01' });
source.on('data', (chunk: Buffer) => (bytes += chunk.length));
await readDocument(source, {
  entity(collection, index, value) {
    entities++;
    const { record } = validateEntity(collection, value, index, problems);
    if (record) stageRow(collection, index, record);
  },
  problem: (p) => problems.add(p),
  wantsFlush: false,
  flush: async () => {},
});
console.log(JSON.stringify({ entities, bytes, problems: problems.total, heapUsed: process.memoryUsage().heapUsed }));
