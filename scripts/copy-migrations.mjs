#!/usr/bin/env node
// Part of `npm run build`: tsc compiles only TypeScript, so the SQL migrations are copied next to
// the compiled migrate.js (dist/db/migrations/), where it reads them; the installed package ships
// dist/ and no src/. The copy replaces the folder, so a removed migration does not linger.
import { cpSync, rmSync } from 'node:fs';

rmSync('dist/db/migrations', { recursive: true, force: true });
cpSync('src/db/migrations', 'dist/db/migrations', { recursive: true });
