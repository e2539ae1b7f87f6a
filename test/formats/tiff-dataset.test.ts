/**
 * Every fixture of test/fixtures/tiff (written by scripts/fixtures/tiff_variants.py) against what
 * GDAL 3.6 / rasterio read from it (expected.json): metadata, and a sha256 of every band and mask
 * of every level.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allBands, expected, jsonNumber, openFixture, sha256 } from './tiff-fixtures.ts';

const readable = Object.entries(expected).filter(([, e]) => e.error === undefined);

describe('TIFF fixtures match GDAL', () => {
  it('covers the variants the format layer must read', () => {
    const compressions = new Set(readable.map(([, e]) => e.compression));
    for (const c of ['NONE', 'DEFLATE', 'LZW', 'ZSTD', 'JPEG', 'WEBP', 'LERC', 'LERC_DEFLATE', 'LERC_ZSTD', 'PACKBITS']) {
      assert.ok(compressions.has(c), `a fixture with ${c}`);
    }
    const dtypes = new Set(readable.map(([, e]) => e.dtype));
    for (const d of ['uint8', 'int8', 'uint16', 'int16', 'uint32', 'int32', 'float32', 'float64']) assert.ok(dtypes.has(d), d);
    assert.ok(readable.length >= 30);
  });

  for (const [name, exp] of readable) {
    it(name, async () => {
      const ds = await openFixture(name);
      assert.equal(ds.width, exp.width);
      assert.equal(ds.height, exp.height);
      assert.equal(ds.count, exp.count);
      assert.equal(ds.dtype, exp.dtype);
      assert.deepEqual(jsonNumber(ds.nodata), exp.nodata);
      assert.deepEqual(
        ds.bands.map((b) => b.colorInterp),
        exp.colorinterp,
      );
      assert.deepEqual(ds.geoTransform, exp.geotransform);
      assert.deepEqual(
        ds.levels.slice(1).map((l) => [l.width, l.height]),
        exp.overviews,
      );
      assert.deepEqual(
        ds.bands.map((b) => b.description),
        exp.descriptions,
      );
      assert.deepEqual(
        ds.bands.map((b) => b.scale),
        exp.scales,
      );
      assert.deepEqual(
        ds.bands.map((b) => b.offset),
        exp.offsets,
      );
      assert.deepEqual(
        ds.bands.map((b) => b.unit),
        exp.units.map((u) => u ?? ''),
      );
      assert.deepEqual(
        ds.bands.map((b) => b.metadata),
        exp.band_tags,
      );
      assert.deepEqual(ds.datasetMetadata, exp.dataset_tags);
      assert.equal(ds.hasDatasetMask, exp.has_dataset_mask);
      assert.equal(ds.compression, exp.compression);
      assert.equal(ds.isTiled, exp.is_tiled);
      // rasterio's block_shapes are (rows, cols)
      assert.deepEqual([ds.levels[0].blockHeight, ds.levels[0].blockWidth], exp.block_shapes[0]);
      assert.deepEqual(ds.palette, exp.palette);
      const alpha = exp.colorinterp.indexOf('alpha');
      assert.equal(ds.alphaBand, alpha >= 0 ? alpha + 1 : null);
      for (const [key, value] of Object.entries(exp.geokeys)) assert.deepEqual(ds.geoKeys.get(Number(key)), value, `GeoKey ${key}`);
      assert.equal(ds.geoKeys.size, Object.keys(exp.geokeys).length);

      assert.equal(ds.levels.length, exp.levels.length);
      for (let lv = 0; lv < exp.levels.length; lv++) {
        const e = exp.levels[lv];
        const level = ds.levels[lv];
        assert.equal(level.hasMask, e.mask !== null, `level ${lv} mask presence`);
        const { bands, mask } = await ds.readWindow(lv, 0, 0, level.width, level.height, allBands(ds.count));
        for (const s of e.samples) {
          const got = bands.map((b) => jsonNumber(b[s.row * level.width + s.col]));
          assert.deepEqual(got, s.values, `level ${lv} pixel (${s.row}, ${s.col})`);
        }
        bands.forEach((b, i) => assert.equal(sha256(b), e.bands[i], `level ${lv} band ${i + 1}`));
        assert.equal(mask === null ? null : sha256(mask), e.mask, `level ${lv} mask`);
      }
    });
  }

  it('reports the raw GeoKeys and PixelIsPoint georeferencing', async () => {
    const ds = await openFixture('gtiff_metadata_int16_point.tif');
    assert.equal(ds.geoKeys.get(1024), 1); // GTModelTypeGeoKey: projected
    assert.equal(ds.geoKeys.get(1025), 2); // GTRasterTypeGeoKey: PixelIsPoint
    assert.equal(ds.geoKeys.get(3072), 32633); // ProjectedCSTypeGeoKey
    assert.equal(ds.geoKeys.get(1026), 'WGS 84 / UTM zone 33N');
    // the tiepoint is at the centre of pixel (0, 0): GDAL moves the origin half a pixel up-left
    assert.deepEqual(ds.geoTransform, [500000, 10, 0, 5600000, 0, -10]);
    assert.equal(ds.datasetMetadata.AREA_OR_POINT, 'Point');
    assert.equal(ds.bands[0].metadata.STATISTICS_MEAN, '12.5');
  });

  it('returns null geotransform and no GeoKeys for a plain TIFF', async () => {
    const ds = await openFixture('gtiff_nogeo.tif');
    assert.equal(ds.geoTransform, null);
    assert.equal(ds.geoKeys.size, 0);
    assert.deepEqual(ds.datasetMetadata, {});
  });

  it('uses external .ovr/.msk/.msk.ovr only when given', async () => {
    const without = await openFixture('ext_sidecars.tif', { sidecars: false });
    assert.equal(without.levels.length, 1);
    assert.equal(without.hasDatasetMask, false);
    const { mask } = await without.readWindow(0, 0, 0, 10, 10, [1]);
    assert.equal(mask, null);
    const withSidecars = await openFixture('ext_sidecars.tif');
    assert.deepEqual(
      withSidecars.levels.map((l) => [l.width, l.height, l.hasMask]),
      [
        [300, 200, true],
        [150, 100, true],
        [75, 50, true],
      ],
    );
    assert.deepEqual(withSidecars.warnings, []);
  });

  it('matches internal reduced-resolution masks to overviews by size', async () => {
    const ds = await openFixture('cog_jpeg_ycbcr_mask.tif');
    assert.deepEqual(
      ds.levels.map((l) => l.hasMask),
      [true, true, true],
    );
    assert.equal(ds.compression, 'JPEG');
    const { mask } = await ds.readWindow(1, 70, 45, 10, 10, [1]);
    assert.ok(mask !== null && mask.every((v) => v === 255), 'centre of the disc is valid');
    const corner = await ds.readWindow(2, 0, 0, 4, 4, [1]);
    assert.ok(corner.mask !== null && corner.mask.every((v) => v === 0), 'corner is masked');
  });

  it('fills never-written (sparse) blocks with nodata', async () => {
    const ds = await openFixture('gtiff_sparse_uint16.tif');
    const { bands } = await ds.readWindow(0, 0, 0, 64, 64, [1]);
    assert.ok(bands[0].every((v) => v === 7));
  });
});
