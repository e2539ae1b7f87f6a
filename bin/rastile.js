#!/usr/bin/env node
// Runs the compiled server from dist/ (built by `npm run build`, which `npm start` runs first);
// without a build, or with RASTILE_FROM_SOURCE=1, runs the TypeScript sources through tsx.
import { existsSync } from 'node:fs';

const dist = new URL('../dist/cli/main.js', import.meta.url);
let mod;
if (existsSync(dist) && !process.env.RASTILE_FROM_SOURCE) {
  mod = await import(dist.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  mod = await import('../src/cli/main.ts');
}
process.exitCode = await mod.main(process.argv.slice(2));
