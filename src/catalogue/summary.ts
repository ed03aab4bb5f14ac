/**
 * The one line `lineup import` prints when an import is committed: per kind of entity in the
 * document (or removed from the store), how many are new, changed, unchanged, deactivated and
 * removed. Changed counts every stored entity whose public projection or updatedAt moved, whoever
 * moved it; deactivated ones are among the changed; removed ones (--replace) were not in it.
 */
import type { ImportSummary } from './importer.js';

export function describeImport(summary: ImportSummary): string {
  const parts = Object.entries(summary.collections)
    .filter(([, c]) => c.imported > 0 || c.deleted > 0 || c.followed > 0)
    .map(([name, c]) => {
      const counts = [`${c.inserted} new`, `${c.changed} changed`, `${c.unchanged} unchanged`, `${c.deactivated} deactivated`, `${c.deleted} removed`];
      if (c.followed > 0) counts.push(`${c.followed} not in the document changed with their media`);
      return `${name} ${c.imported} (${counts.join(', ')})`;
    });
  return `imported ${summary.entities} entities in ${(summary.durationMs / 1000).toFixed(1)} s: ${parts.join('; ') || 'nothing'}`;
}
