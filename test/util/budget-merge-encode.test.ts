/**
 * Mosaic merges and the npy/GeoTIFF encoders charge the request budget before they allocate
 * (issue 9): over the budget they fail with MaxSizeExceeded (HTTP 400) naming what, and nothing
 * is allocated.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isRastileError } from '../../src/errors.ts';
import { WGS84 } from '../../src/geo/crs.ts';
import { createPixelSelection } from '../../src/mosaic/pixel-selection.ts';
import type { ImageData } from '../../src/raster/image-data.ts';
import { encodeGeoTiff } from '../../src/raster/render/encode-geotiff.ts';
import { encodeNpy } from '../../src/raster/render/encode-npy.ts';
import { RequestBudget, runWithBudget } from '../../src/util/request-budget.ts';
import { STATUS_BY_KIND } from '../../src/http/error-status.ts';

const W = 512;
const H = 512;

function image(): ImageData {
  return {
    width: W,
    height: H,
    dtype: 'float32',
    bands: [new Float32Array(W * H).fill(1), new Float32Array(W * H).fill(2)],
    masks: [new Uint8Array(W * H).fill(255), new Uint8Array(W * H).fill(255)],
    bounds: [0, 0, 1, 1],
    crs: WGS84,
    bandNames: ['b1', 'b2'],
    bandDescriptions: ['', ''],
    nodata: null,
    scales: [1, 1],
    offsets: [0, 0],
  } as unknown as ImageData;
}

/** Runs `fn` under a budget of `mib` MiB and returns the error it failed with. */
async function overBudget(mib: number, fn: () => unknown): Promise<Error> {
  const budget = new RequestBudget(mib * 2 ** 20);
  try {
    await runWithBudget(budget, async () => fn());
  } catch (err) {
    assert.equal(budget.live, 0, 'nothing was charged');
    return err as Error;
  }
  assert.fail('no error');
}

const refused = (err: Error, what: RegExp): void => {
  assert.ok(isRastileError(err, 'MaxSizeExceeded'), String(err));
  assert.equal(STATUS_BY_KIND.MaxSizeExceeded, 400);
  assert.match(err.message, what);
};

test('npy and GeoTIFF encoders are charged before they allocate', async () => {
  const img = image();
  refused(await overBudget(1, () => encodeNpy(img.bands, 'float32', H, W)), /npy of 2 band\(s\) of 512×512/);
  refused(
    await overBudget(1, () => encodeGeoTiff({ width: W, height: H, dtype: 'float32', bands: img.bands, mask: null, bounds: img.bounds, crs: WGS84 })),
    /GeoTIFF of 2 band\(s\) of 512×512/,
  );
  // within the budget they work
  const budget = new RequestBudget(64 * 2 ** 20);
  assert.ok(runWithBudget(budget, () => encodeNpy(img.bands, 'float32', H, W)).length > 2 * W * H * 4);
});

test('mosaic merges (first, mean, count) are charged before they allocate', async () => {
  for (const name of ['first', 'mean', 'median', 'stdev', 'count'] as const) {
    const err = await overBudget(0.25, () => {
      const sel = createPixelSelection(name);
      sel.feed(image());
      sel.feed(image());
      return sel.result();
    });
    refused(err, new RegExp(`pixel_selection=${name}`));
  }
});
