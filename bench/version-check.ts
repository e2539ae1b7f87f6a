/**
 * Cost of the per-use version check of a cached local dataset (issue 9 §2): what
 * DatasetCache.open adds to each request: one stat of the file plus the sidecar probes
 * (.ovr/.msk/.msk.ovr/.aux.xml, absent here), through tiffGridVersions.
 * Run: node --import tsx bench/version-check.ts   (NOSIDE=1: without the sidecar probes)
 */
import path from 'node:path';
import { createBlockCache } from '../src/formats/tiff/block-cache.ts';
import { tiffGridVersions } from '../src/formats/tiff/tiff-grid.ts';
import { createSourceOpener } from '../src/sources/open-source.ts';
import { sourceOptionsFromEnv } from '../src/sources/options.ts';

const dir = path.resolve('test/fixtures/datasets');
const file = path.join(dir, 'rgb_uint8_utm.tif');
const sources = createSourceOpener({ ...sourceOptionsFromEnv({}), localRoots: [dir] });
const versions = tiffGridVersions({ sources, blockCache: createBlockCache(1 << 20), maxBlockBytes: 1 << 26, sidecars: process.env.NOSIDE === undefined });
for (let i = 0; i < 200; i++) await versions.current(file);
const n = 3000;
const t0 = process.hrtime.bigint();
const c0 = process.cpuUsage();
for (let i = 0; i < n; i++) await versions.current(file);
const perUse = Number(process.hrtime.bigint() - t0) / n / 1000;
const cpu = process.cpuUsage(c0);
const cpuPerUse = (cpu.user + cpu.system) / n;
console.log(`version check of a cached local dataset: ${perUse.toFixed(1)} µs per use, ${cpuPerUse.toFixed(1)} µs CPU (${n} uses, sequential)`);
await sources.close();
