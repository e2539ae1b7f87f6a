/**
 * Open + first chunk of a NetCDF-4/HDF5 file over loopback HTTP with Range (the GHRSST GAMSSA
 * granules of /work/shared/fixtures by default): requests, bytes and time, cold (new opener)
 * and warm (same file, next chunk read again from a fresh open of the cached source).
 *
 *   node --import tsx bench/hdf5-open.ts [file.nc] [variable] [delayMs]
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { ArrayGroup, ArrayVariable } from '../src/formats/array/array-model.ts';
import { openHdf5 } from '../src/formats/hdf5/open-hdf5.ts';
import { createSourceOpener } from '../src/sources/open-source.ts';
import { sourceOptionsFromEnv } from '../src/sources/options.ts';
import { startRangeServer } from '../test/helpers/http-range-server.ts';

const SHARED = '/work/shared/fixtures/cmr/data';
const file =
  process.argv[2] ?? path.join(SHARED, (readdirSync(SHARED, { recursive: true }) as string[]).find((p) => p.includes('GAMSSA') && p.endsWith('.nc')) ?? '');
const variable = process.argv[3] ?? 'analysed_sst';
const delayMs = Number(process.argv[4] ?? 20);

function find(g: ArrayGroup, name: string): ArrayVariable | undefined {
  return g.variables.get(name) ?? [...g.groups.values()].map((c) => find(c, name)).find((v) => v !== undefined);
}

const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const ms = (v: number): string => `${v.toFixed(1)} ms`;

const server = await startRangeServer({ root: path.dirname(file), delayMs });
try {
  for (let run = 0; run < 3; run++) {
    const opener = createSourceOpener({ ...sourceOptionsFromEnv({}), allowPrivateHosts: true });
    const c0 = cpuMs();
    const t0 = performance.now();
    const src = await opener.open(`${server.url}/${path.basename(file)}`);
    const f = await openHdf5(src);
    const t1 = performance.now();
    const c1 = cpuMs();
    const openStats = { requests: src.stats!.requests, bytes: src.stats!.bytesFetched };
    const v = find(f.root, variable);
    if (v === undefined) throw new Error(`no variable ${variable}`);
    await v.readChunk(v.shape.map(() => 0));
    const t2 = performance.now();
    const c2 = cpuMs();
    await v.readChunk(v.shape.map(() => 0));
    const t3 = performance.now();
    const c3 = cpuMs();
    console.log(
      `run ${run}: open ${ms(t1 - t0)} (cpu ${ms(c1 - c0)}; ${openStats.requests} req, ${openStats.bytes} B); first chunk ${ms(t2 - t1)} (cpu ${ms(c2 - c1)}); ` +
        `total ${src.stats!.requests} req, ${src.stats!.bytesFetched} B; same chunk again (bytes cached: decode only) ${ms(t3 - t2)} (cpu ${ms(c3 - c2)})`,
    );
    await opener.close();
  }
} finally {
  await server.close();
}
