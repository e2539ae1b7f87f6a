/**
 * A worker's start loads only what every request may need (issue 12, memory of the tree): the
 * app built with the default configuration has not loaded sharp (JPEG/WebP, the favicon),
 * ioredis (RASTILE_CACHE_URL), pino-pretty (LOG_FORMAT=pretty) nor zarrita (Zarr files). Checked
 * in a fresh process: CommonJS packages through require.cache, zarrita through a resolve hook.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

const SCRIPT = `
import * as nodeModule from 'node:module';
const { createRequire } = nodeModule;
const registerHooks = nodeModule.registerHooks; // node >= 22.15
const resolved = [];
registerHooks?.({ resolve(spec, ctx, next) { const r = next(spec, ctx); resolved.push(r.url); return r; } });
const { buildApp } = await import('./src/http/app.ts');
const { configFromEnv } = await import('./src/cli/config-from-env.ts');
const app = buildApp(configFromEnv({}), { logger: true });
await app.ready();
const cjs = Object.keys(createRequire(import.meta.url).cache);
const loaded = (name) => cjs.some((f) => f.includes('/node_modules/' + name + '/')) || resolved.some((u) => u.includes('/node_modules/' + name + '/'));
console.log(JSON.stringify({ hooks: typeof registerHooks === 'function', sharp: loaded('sharp'), ioredis: loaded('ioredis'), pinoPretty: loaded('pino-pretty'), zarrita: loaded('zarrita'), fastify: loaded('fastify') }));
await app.close();
`;

it('the app starts without sharp, ioredis, pino-pretty or zarrita', () => {
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'silent', LOG_FORMAT: 'json' },
  }).toString();
  const r = JSON.parse(out.trim().split('\n').pop()!) as Record<string, boolean>;
  assert.equal(r.fastify, true, 'the probe sees loaded packages');
  assert.deepEqual({ sharp: r.sharp, ioredis: r.ioredis, pinoPretty: r.pinoPretty }, { sharp: false, ioredis: false, pinoPretty: false });
  if (r.hooks) assert.equal(r.zarrita, false);
});
