/**
 * `rastile mosaic create`: writes a MosaicJSON 0.0.3 document indexing COGs, with footprints,
 * zoom ranges and the quadkey zoom chosen as cogeo-mosaic's `create` does
 * (src/mosaic/mosaicjson/create.ts). The COGs are opened with our own TIFF reader (headers only),
 * through the same sources as the server (local paths, http(s)://, s3://).
 *
 *   rastile mosaic create [--quadkey-zoom Z] [--minzoom Z] [--maxzoom Z] [--name N]
 *                         [--input LIST|-] [-o OUT.json] [COG…]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { isRastileError } from '../errors.ts';
import { WGS84 } from '../geo/crs.ts';
import { getTileMatrixSet } from '../geo/tms.ts';
import { createMosaicJson, type DatasetFootprint } from '../mosaic/mosaicjson/create.ts';
import { configFromEnv } from './config-from-env.ts';

export const MOSAIC_USAGE = `Usage:
  rastile mosaic create [--quadkey-zoom Z] [--minzoom Z] [--maxzoom Z] [--name NAME] [--input LIST|-] [-o OUT.json] [COG…]

  Writes a MosaicJSON 0.0.3 document indexing the COGs (given as arguments and/or one per line in
  LIST, '-' = stdin) to OUT.json (default: stdout). minzoom/maxzoom default to the largest of the
  datasets' WebMercatorQuad zoom ranges, the quadkey zoom to minzoom (as cogeo-mosaic). Asset
  paths are written as given; the server resolves relative ones against the document's location.`;

const CONCURRENCY = 8;

function zoomArg(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const z = Number(raw);
  if (!/^\d+$/.test(raw) || z > 30) throw new Error(`--${name} must be an integer in 0..30, got '${raw}'`);
  return z;
}

export async function mosaicMain(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        'quadkey-zoom': { type: 'string' },
        minzoom: { type: 'string' },
        maxzoom: { type: 'string' },
        name: { type: 'string' },
        input: { type: 'string' },
        output: { type: 'string', short: 'o' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    console.error(`rastile mosaic: ${(err as Error).message}\n\n${MOSAIC_USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [sub, ...inputs] = positionals;
  if (values.help) {
    console.log(MOSAIC_USAGE);
    return 0;
  }
  if (sub !== 'create') {
    console.error(`rastile mosaic: ${sub ? `unknown subcommand '${sub}'` : 'missing subcommand'}\n\n${MOSAIC_USAGE}`);
    return 2;
  }
  try {
    const files = [...inputs];
    if (values.input !== undefined) {
      const text = values.input === '-' ? readFileSync(0, 'utf8') : readFileSync(values.input, 'utf8');
      files.push(
        ...text
          .split(/\r?\n/)
          .map((l) => l.trim())
          .filter((l) => l !== '' && !l.startsWith('#')),
      );
    }
    if (files.length === 0) throw new Error('no COGs given');
    const options = {
      minzoom: zoomArg('minzoom', values.minzoom),
      maxzoom: zoomArg('maxzoom', values.maxzoom),
      quadkeyZoom: zoomArg('quadkey-zoom', values['quadkey-zoom']),
      ...(values.name !== undefined ? { name: values.name } : {}),
      warn: (m: string) => console.error(`rastile mosaic create: warning: ${m}`),
    };
    const footprints = await readFootprints(files);
    const doc = createMosaicJson(footprints, options);
    const text = `${JSON.stringify(doc)}\n`;
    if (values.output === undefined || values.output === '-') process.stdout.write(text);
    else writeFileSync(values.output, text);
    return 0;
  } catch (err) {
    console.error(`rastile mosaic create: ${isRastileError(err) || err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}

/** Footprint (EPSG:4326 bounds) and WebMercatorQuad zoom range of each COG, in input order. */
async function readFootprints(files: string[]): Promise<DatasetFootprint[]> {
  // Local inputs may live anywhere the user points at: allow their folders as local roots.
  const localDirs = files.filter((f) => !/^[A-Za-z][A-Za-z0-9+.-]+:\/\//.test(f)).map((f) => path.dirname(path.resolve(f.replace(/^file:\/\//, ''))));
  const env = process.env;
  const roots = [...new Set([...(env.RASTILE_LOCAL_ROOTS ? env.RASTILE_LOCAL_ROOTS.split(':') : []), ...localDirs, process.cwd()])];
  const config = configFromEnv(env, { localRoots: roots.join(':') });
  const { createServices } = await import('../http/services.ts');
  const services = createServices(config);
  const tms = getTileMatrixSet('WebMercatorQuad');
  const out: DatasetFootprint[] = new Array<DatasetFootprint>(files.length);
  for (let i = 0; i < files.length; i += CONCURRENCY) {
    await Promise.all(
      files.slice(i, i + CONCURRENCY).map(async (f, k) => {
        const reader = await services.openCog(f).catch((err: unknown) => {
          throw new Error(`${f}: ${err instanceof Error ? err.message : String(err)}`);
        });
        out[i + k] = { path: f, bounds: reader.boundsIn(WGS84), ...reader.zoomRange(tms) };
      }),
    );
  }
  return out;
}
