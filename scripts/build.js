#!/usr/bin/env node
// Compiles src/ to dist/ (same folder layout, so module-relative paths keep working) and copies
// the data files modules read at run time. `npm start` runs it first; the server then runs plain
// JavaScript (no TypeScript loader thread at run time: ~40 MB less memory, faster start).
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const require = createRequire(import.meta.url);
rmSync(path.join(root, 'dist'), { recursive: true, force: true });
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', path.join(root, 'tsconfig.build.json')], { stdio: 'inherit', cwd: root });
for (const dir of ['geo/tms-data', 'raster/colormap/data', 'http/static']) {
  mkdirSync(path.join(root, 'dist', dir), { recursive: true });
  cpSync(path.join(root, 'src', dir), path.join(root, 'dist', dir), { recursive: true, filter: (f) => !f.endsWith('.ts') });
}
console.log('built dist/');
