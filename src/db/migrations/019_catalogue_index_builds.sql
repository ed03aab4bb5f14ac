-- 019: a first import's secondary indexes, built after its COMMIT (docs/architecture.md#the-importer).
-- A first import drops the indexes of the tables it fills and builds them once the rows are in
-- (src/catalogue/bulk-load.ts). Inside the import's transaction they would be built one after
-- another on its one backend while the other cores idle. So the transaction records each dropped
-- index here, with its definition, and commits; the importer
-- then builds them on several connections, each index in its own transaction with the deletion of
-- its row (src/catalogue/after-commit.ts). An importer stopped in between leaves its rows: the
-- next import or `lineup migrate` builds what is left.
CREATE TABLE catalogue_index_builds (
  name text PRIMARY KEY,          -- the index (regclass text, schema-qualified where needed)
  table_name text NOT NULL,       -- its table (regclass text)
  method text NOT NULL,           -- its access method: gin and gist build on one process, first
  definition text NOT NULL        -- pg_get_indexdef() of the dropped index
);
