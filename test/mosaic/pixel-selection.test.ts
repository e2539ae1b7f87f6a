/**
 * Pixel-selection methods on small images with hand-computed values (the numpy masked-array
 * results of rio-tiler's methods, worked out by hand below each case), and the mosaic reader's
 * chunking, skipping, resizing, early exit and NoData rules.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RastileError } from '../../src/errors.ts';
import { WGS84 } from '../../src/geo/crs.ts';
import { createPixelSelection, PIXEL_SELECTION_METHODS, type PixelSelectionName } from '../../src/mosaic/pixel-selection.ts';
import { mosaicRead } from '../../src/mosaic/mosaic-read.ts';
import { readEach } from '../../src/mosaic/read-each.ts';
import { allocate, type DType } from '../../src/dtype.ts';
import type { ImageData } from '../../src/raster/image-data.ts';

/** A 2×2 image: `bands[b]` values, `masks[b]` 1 = valid. */
function img(bands: number[][], masks: number[][], dtype: DType = 'uint16'): ImageData {
  return {
    width: 2,
    height: 2,
    dtype,
    bands: bands.map((v) => {
      const a = allocate(dtype, 4);
      a.set(v);
      return a;
    }),
    masks: masks.map((m) => Uint8Array.from(m, (v) => (v ? 255 : 0))),
    bounds: [0, 0, 2, 2],
    crs: WGS84,
    bandNames: bands.map((_, i) => `b${i + 1}`),
    bandDescriptions: bands.map((_, i) => `desc${i + 1}`),
    nodata: 0,
    scales: bands.map(() => 1),
    offsets: bands.map(() => 0),
  };
}

const A = img([[10, 20, 30, 40]], [[1, 1, 0, 0]]);
const B = img([[5, 25, 35, 0]], [[1, 1, 1, 0]]);
const C = img([[7, 1, 50, 60]], [[1, 0, 1, 1]]);

function run(name: PixelSelectionName, images: ImageData[]): ImageData {
  const m = createPixelSelection(name);
  for (const i of images) m.feed(i);
  const r = m.result();
  assert.ok(r, `${name}: result`);
  return r;
}

const values = (r: ImageData, b = 0) => Array.from(r.bands[b]);
const valid = (r: ImageData, b = 0) => Array.from(r.masks[b], (v) => (v ? 1 : 0));

describe('pixel selection methods', () => {
  it('lists the nine methods of rio-tiler', () => {
    assert.deepEqual(
      [...PIXEL_SELECTION_METHODS].sort(),
      ['count', 'first', 'highest', 'lastbandhigh', 'lastbandlow', 'lowest', 'mean', 'median', 'stdev'],
      'method names',
    );
  });

  it('first keeps the first valid value and stops once every pixel is valid', () => {
    const m = createPixelSelection('first');
    m.feed(A);
    assert.equal(m.isDone(), false, 'A leaves 2 pixels masked');
    m.feed(B);
    assert.equal(m.isDone(), false, 'pixel 3 still masked');
    assert.equal(m.isDone(Uint8Array.from([255, 255, 255, 0])), true, 'done inside a cutline that excludes pixel 3');
    m.feed(C);
    assert.equal(m.isDone(), true, 'all filled');
    const r = m.result()!;
    // pixel0 A=10, pixel1 A=20, pixel2 A masked → B=35, pixel3 A,B masked → C=60
    assert.deepEqual(values(r), [10, 20, 35, 60], 'first values');
    assert.deepEqual(valid(r), [1, 1, 1, 1], 'first mask');
    assert.equal(r.dtype, 'uint16', 'dtype kept');
    assert.deepEqual(r.bandDescriptions, ['desc1'], 'metadata of the first image');
  });

  it('first never writes into its inputs', () => {
    const a = img([[1, 2, 3, 4]], [[0, 0, 0, 0]]);
    const m = createPixelSelection('first');
    m.feed(a);
    m.feed(img([[9, 9, 9, 9]], [[1, 1, 1, 1]]));
    assert.deepEqual(Array.from(a.bands[0]), [1, 2, 3, 4], 'input values untouched');
    assert.deepEqual(Array.from(a.masks[0]), [0, 0, 0, 0], 'input mask untouched');
  });

  it('highest and lowest', () => {
    // highest: p0 max(10,5,7)=10; p1 valid 20,25 → 25; p2 valid 35,50 → 50; p3 valid C=60
    const h = run('highest', [A, B, C]);
    assert.deepEqual(values(h), [10, 25, 50, 60], 'highest values');
    assert.deepEqual(valid(h), [1, 1, 1, 1], 'highest mask');
    // lowest: p0 5; p1 20 (C masked); p2 35; p3 60
    const l = run('lowest', [A, B, C]);
    assert.deepEqual(values(l), [5, 20, 35, 60], 'lowest values');
  });

  it('highest keeps a pixel masked when no item has it', () => {
    const r = run('highest', [A, img([[99, 0, 0, 0]], [[0, 0, 0, 0]])]);
    assert.deepEqual(valid(r), [1, 1, 0, 0], 'pixels 2 and 3 stay masked');
    assert.deepEqual(values(r).slice(0, 2), [10, 20], 'masked larger values do not win');
  });

  it('mean and median over the valid samples, cast to the first dtype', () => {
    // mean: p0 (10+5+7)/3=7.33→7; p1 (20+25)/2=22.5→22; p2 (35+50)/2=42.5→42; p3 60
    const mean = run('mean', [A, B, C]);
    assert.deepEqual(values(mean), [7, 22, 42, 60], 'mean values');
    assert.deepEqual(valid(mean), [1, 1, 1, 1], 'mean mask');
    assert.equal(mean.dtype, 'uint16', 'mean dtype');
    // median: p0 median(10,5,7)=7; p1 (20+25)/2=22.5→22; p2 42.5→42; p3 60
    const median = run('median', [A, B, C]);
    assert.deepEqual(values(median), [7, 22, 42, 60], 'median values');
    const fmed = run(
      'median',
      [A, B, C].map((i) => ({ ...i, dtype: 'float32' as const, bands: i.bands.map((b) => Float32Array.from(b)) })),
    );
    assert.deepEqual(values(fmed), [7, 22.5, 42.5, 60], 'float median keeps halves');
  });

  it('mean masks a pixel only when every item masks it', () => {
    const r = run('mean', [img([[1, 2, 3, 4]], [[1, 0, 0, 0]]), img([[3, 2, 3, 4]], [[1, 1, 0, 0]])]);
    assert.deepEqual(valid(r), [1, 1, 0, 0], 'mean mask');
    assert.deepEqual(values(r).slice(0, 2), [2, 2], 'mean values');
  });

  it('stdev is the population standard deviation in float64', () => {
    const r = run('stdev', [A, B, C]);
    assert.equal(r.dtype, 'float64', 'stdev dtype');
    const sd = (xs: number[]) => {
      const m = xs.reduce((a, b) => a + b, 0) / xs.length;
      return Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / xs.length);
    };
    const want = [sd([10, 5, 7]), sd([20, 25]), sd([35, 50]), 0];
    values(r).forEach((v, i) => assert.ok(Math.abs(v - want[i]) < 1e-12, `stdev pixel ${i}: ${v} vs ${want[i]}`));
  });

  it('count counts valid items on the first band, never masked, uint8', () => {
    const r = run('count', [A, B, C]);
    assert.deepEqual(values(r), [3, 2, 2, 1], 'counts');
    assert.deepEqual(valid(r), [1, 1, 1, 1], 'count mask');
    assert.equal(r.dtype, 'uint8', 'count dtype');
    assert.equal(r.bands.length, 1, 'one band');
    const empty = run('count', [img([[1, 1, 1, 1]], [[0, 0, 0, 0]])]);
    assert.deepEqual(values(empty), [0, 0, 0, 0], 'zero counts are valid values');
  });

  it('lastbandhigh and lastbandlow decide on the last band and drop it', () => {
    // band 1 = data, band 2 = decision (e.g. NDVI or -cloud)
    const x = img(
      [
        [1, 2, 3, 4],
        [5, 5, 5, 5],
      ],
      [
        [1, 1, 1, 1],
        [1, 1, 1, 1],
      ],
    );
    const y = img(
      [
        [10, 20, 30, 40],
        [9, 1, 9, 1],
      ],
      [
        [1, 1, 0, 1],
        [1, 1, 0, 1],
      ],
    );
    const hi = run('lastbandhigh', [x, y]);
    assert.equal(hi.bands.length, 1, 'last band dropped');
    // y wins where its last band 9 > 5 and y valid: p0 yes; p2 y masked → x
    assert.deepEqual(values(hi), [10, 2, 3, 4], 'lastbandhigh values');
    const lo = run('lastbandlow', [x, y]);
    assert.deepEqual(values(lo), [1, 20, 3, 40], 'lastbandlow values');
    assert.deepEqual(lo.bandDescriptions, ['desc1'], 'descriptions of the kept bands');
    assert.throws(
      () => run('lastbandhigh', [A]),
      (e: unknown) => e instanceof RastileError && e.kind === 'BadRequest',
      'one band is not enough',
    );
  });

  it('promotes the dtype when a later item is wider (numpy.where)', () => {
    const a = img([[1, 2, 3, 4]], [[1, 0, 1, 0]], 'uint8');
    const b = img([[300, 400, 500, 600]], [[1, 1, 1, 1]], 'uint16');
    const r = run('first', [a, b]);
    assert.equal(r.dtype, 'uint16', 'promoted');
    assert.deepEqual(values(r), [1, 400, 3, 600], 'values');
  });

  it('rejects items with another band count', () => {
    const m = createPixelSelection('first');
    m.feed(A);
    assert.throws(
      () =>
        m.feed(
          img(
            [
              [1, 1, 1, 1],
              [2, 2, 2, 2],
            ],
            [
              [1, 1, 1, 1],
              [1, 1, 1, 1],
            ],
          ),
        ),
      /same number of bands/,
      'band count',
    );
  });
});

describe('mosaicRead', () => {
  const outside = () => Promise.reject(new RastileError('TileOutsideBounds', 'outside'));

  it('skips items outside, feeds in item order and reports the items used', async () => {
    const images = new Map<string, ImageData | null>([
      ['a', null],
      ['b', B],
      ['c', C],
    ]);
    const r = await mosaicRead(['a', 'b', 'c'], (k) => (images.get(k) ? Promise.resolve(images.get(k)!) : outside()), {
      method: createPixelSelection('highest'),
      concurrency: 2,
    });
    assert.deepEqual(r.used, ['b', 'c'], 'used items');
    assert.deepEqual(values(r.image), [7, 25, 50, 60], 'highest of B and C');
  });

  it('first stops reading (and stops pulling items) once full', async () => {
    const full = img([[1, 1, 1, 1]], [[1, 1, 1, 1]]);
    const read: string[] = [];
    let pulled = 0;
    async function* items() {
      for (const k of ['a', 'b', 'c', 'd', 'e']) {
        pulled++;
        yield k;
      }
    }
    const r = await mosaicRead(
      items(),
      async (k) => {
        read.push(k);
        return k === 'a' ? A : full;
      },
      { method: createPixelSelection('first'), concurrency: 1 },
    );
    assert.deepEqual(read, ['a', 'b'], 'only two reads');
    assert.deepEqual(r.used, ['a', 'b'], 'used');
    assert.equal(pulled, 2, 'no third item pulled from the source');
    assert.deepEqual(values(r.image), [10, 20, 1, 1], 'values');
  });

  it('uses the cutline for the early exit of features', async () => {
    const read: string[] = [];
    await mosaicRead(
      ['a', 'b', 'c'],
      async (k) => {
        read.push(k);
        return k === 'a' ? A : B;
      },
      { method: createPixelSelection('first'), concurrency: 1, cutline: () => Uint8Array.from([255, 255, 255, 0]) },
    );
    assert.deepEqual(read, ['a', 'b'], 'pixel 3 is outside the cutline');
  });

  it('resizes later images to the first size', async () => {
    const big: ImageData = {
      ...img([[0, 0, 0, 0]], [[1, 1, 1, 1]]),
      width: 4,
      height: 1,
      bands: [Uint16Array.from([1, 2, 3, 4])],
      masks: [new Uint8Array(4).fill(255)],
    };
    const small: ImageData = {
      ...img([[0, 0, 0, 0]], [[1, 1, 1, 1]]),
      width: 2,
      height: 1,
      bands: [Uint16Array.from([7, 8])],
      masks: [new Uint8Array(2).fill(255)],
    };
    const r = await mosaicRead([small, big], async (i) => i, { method: createPixelSelection('highest'), concurrency: 2 });
    assert.equal(r.image.width, 2, 'width of the first');
    assert.deepEqual(values(r.image), [7, 8], 'big resized with nearest: [1,3] or [2,4] both lower');
  });

  it('NoData when there is no item, and when every item is outside', async () => {
    await assert.rejects(
      mosaicRead([], async () => A, { method: createPixelSelection('first'), concurrency: 2, what: 'tile 1-2-3' }),
      (e: unknown) => e instanceof RastileError && e.kind === 'NoData' && /tile 1-2-3/.test(e.message),
      'no item',
    );
    await assert.rejects(
      mosaicRead(['a'], outside, { method: createPixelSelection('first'), concurrency: 2 }),
      (e: unknown) => e instanceof RastileError && e.kind === 'NoData',
      'all outside',
    );
  });

  it('propagates other errors', async () => {
    await assert.rejects(
      mosaicRead(['a', 'b'], (k) => (k === 'b' ? Promise.reject(new RastileError('UpstreamError', 'boom')) : Promise.resolve(A)), {
        method: createPixelSelection('mean'),
        concurrency: 2,
      }),
      (e: unknown) => e instanceof RastileError && e.kind === 'UpstreamError',
      'upstream error kept',
    );
  });

  it('readEach keeps the items with data, in order', async () => {
    const r = await readEach(
      ['a', 'b', 'c'],
      async (k) => {
        if (k === 'b') throw new RastileError('PointOutsideBounds', 'no');
        return k.toUpperCase();
      },
      { concurrency: 2 },
    );
    assert.deepEqual(
      r,
      [
        { item: 'a', value: 'A' },
        { item: 'c', value: 'C' },
      ],
      'entries',
    );
    await assert.rejects(
      readEach([], async () => 1, { concurrency: 1 }),
      (e: unknown) => e instanceof RastileError && e.kind === 'NoData',
      'none',
    );
  });
});
