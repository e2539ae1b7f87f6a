/**
 * Hostile headers (scripts/fixtures/hostile.py: a valid COG with one field overwritten) are
 * refused when the file is opened, with an InvalidFormat naming the field, before anything is
 * allocated per band or per block. GDAL's verdict on each file is in expected.json.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createBlockCache } from '../../src/formats/tiff/block-cache.ts';
import { TiffDataset } from '../../src/formats/tiff/tiff-dataset.ts';
import { fileSource } from './file-source.ts';

const DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'hostile');
const gdal = JSON.parse(readFileSync(join(DIR, 'expected.json'), 'utf8')) as Record<string, { gdal_opens: boolean; gdal_error: string | null }>;
const open = async (name: string) => TiffDataset.open(await fileSource(join(DIR, name)), { blockCache: createBlockCache(1 << 20) });

describe('hostile TIFF headers', () => {
  it('refuses SamplesPerPixel=65535 with three BitsPerSample values, as GDAL does', async () => {
    assert.equal(gdal['spp_65535.tif'].gdal_opens, false);
    assert.match(gdal['spp_65535.tif'].gdal_error!, /Incorrect count for "BitsPerSample"/);
    await assert.rejects(open('spp_65535.tif'), { kind: 'InvalidFormat', message: /BitsPerSample has 3 values for SamplesPerPixel=65535/ });
  });

  it('refuses a ModelPixelScale that gives a non-invertible or infinite geotransform, naming the tag', async () => {
    await assert.rejects(open('pixel_scale_tiny.tif'), { kind: 'InvalidFormat', message: /ModelPixelScale \(5e-324, 5e-324\).*not invertible/ });
    await assert.rejects(open('pixel_scale_huge.tif'), { kind: 'InvalidFormat', message: /ModelPixelScale \(1e\+308, 1e\+308\).*(not invertible|infinity)/ });
  });

  it('refuses block tables too short for the image size or the planar configuration', async () => {
    await assert.rejects(open('short_offsets.tif'), {
      kind: 'InvalidFormat',
      message: /TileOffsets has 6 entries, a 65535×120 image in 64×64 tiles needs 2048/,
    });
    await assert.rejects(open('planar_lie.tif'), {
      kind: 'InvalidFormat',
      message: /TileOffsets has 6 entries, .*× 3 planes \(PlanarConfiguration=2, SamplesPerPixel=3\) needs 18/,
    });
  });

  it('ignores an overview larger than the full resolution, with a warning', async () => {
    const ds = await open('overview_larger.tif');
    assert.deepEqual(
      ds.levels.map((l) => [l.width, l.height]),
      [
        [160, 120],
        [40, 30],
      ],
    );
    assert.match(ds.warnings.join('\n'), /Ignored overview image 1: its size 1000×60 exceeds the full resolution 160×120/);
  });

  it('opens the untouched base and the legitimate many-band file', async () => {
    const base = await open('base_rgb.tif');
    assert.deepEqual([base.width, base.height, base.count, base.levels.length], [160, 120, 3, 3]);
    const many = await open('many_bands.tif');
    assert.deepEqual([many.width, many.height, many.count, many.dtype], [32, 32, 16, 'float64']);
  });
});
