/**
 * minzoom/maxzoom, first/last tileMatrixSetLimits and WGS84 bounds for ~45 real rasters in all 13
 * TMSs, against the GDAL-derived values in shared/reference/derived_fixture_values.jsonl (read
 * only when that folder exists; never copied into the repo).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { GeoTransform } from '../../src/geo/affine.ts';
import type { Bounds } from '../../src/geo/bounds.ts';
import { WGS84, parseCrs } from '../../src/geo/crs.ts';
import { datasetGeographicBounds } from '../../src/geo/transform.ts';
import { getTileMatrixSet, TMS_IDS } from '../../src/geo/tms.ts';

const JSONL = new URL('../../../shared/reference/derived_fixture_values.jsonl', import.meta.url);
const present = existsSync(JSONL);

interface Derived {
  file: string;
  info?: { bounds: Bounds; width: number; height: number; crs: string };
  wgs84_bounds?: Bounds;
  zooms?: Record<string, { minzoom?: number; maxzoom?: number; limits_first?: unknown; limits_last?: unknown; error?: string }>;
}

const rows: Derived[] = present
  ? readFileSync(JSONL, 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as Derived)
  : [];

describe('derived fixture values (GDAL 3.6 / rasterio 1.3 / morecantile)', { skip: present ? false : 'shared/reference not present' }, () => {
  for (const d of rows) {
    if (!d.info || !d.zooms) continue;
    const { bounds, width, height } = d.info;
    // info.bounds is (left, bottom, right, top) of a north-up (or south-up) grid.
    const gt: GeoTransform = [bounds[0], (bounds[2] - bounds[0]) / width, 0, bounds[3], 0, (bounds[1] - bounds[3]) / height];
    it(`${d.file}: zoom ranges and limits in all TMSs`, () => {
      const crs = parseCrs(d.info!.crs);
      for (const id of TMS_IDS) {
        const exp = d.zooms![id];
        if (!exp || exp.error) continue;
        const tms = getTileMatrixSet(id);
        const zr = tms.zoomRange(crs, gt, width, height);
        const limits = tms.limits(datasetGeographicBounds(crs, bounds, tms.geographicCrs), zr.minzoom, zr.maxzoom);
        assert.deepEqual(
          { minzoom: zr.minzoom, maxzoom: zr.maxzoom, limits_first: limits[0], limits_last: limits[limits.length - 1] },
          { minzoom: exp.minzoom, maxzoom: exp.maxzoom, limits_first: exp.limits_first, limits_last: exp.limits_last },
          `${d.file} / ${id}`,
        );
      }
    });
    if (d.wgs84_bounds) {
      it(`${d.file}: WGS84 bounds`, () => {
        const got = datasetGeographicBounds(parseCrs(d.info!.crs), bounds, WGS84);
        d.wgs84_bounds!.forEach((v, i) => assert.ok(Math.abs(got[i]! - v) <= 1e-9 * Math.max(1, Math.abs(v)), `${got} vs ${d.wgs84_bounds}`));
      });
    }
  }
});
