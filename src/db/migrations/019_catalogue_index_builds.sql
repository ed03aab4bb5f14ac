-- 019: a first import's secondary indexes, built after its COMMIT (issue 16, session 26).
-- A first import drops the indexes of the tables it fills and builds them once the rows are in
-- (src/catalogue/bulk-load.ts). The builds used to run inside the import's transaction, one after
-- another on its one backend (≈ 50 s at 1,000,000 Events while the other cores idled). The
-- transaction now records each dropped index here, with its definition, and commits; the importer
-- then builds them on several connections, each index in its own transaction with the deletion of
-- its row (src/catalogue/after-commit.ts). An importer stopped in between leaves its rows: the
-- next import or `lineup migrate` builds what is left.
CREATE TABLE catalogue_index_builds (
  name text PRIMARY KEY,          -- the index (regclass text, schema-qualified where needed)
  table_name text NOT NULL,       -- its table (regclass text)
  method text NOT NULL,           -- its access method: gin and gist build on one process, first
  definition text NOT NULL        -- pg_get_indexdef() of the dropped index
);
