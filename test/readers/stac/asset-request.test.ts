import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseAssetRequest } from '../../../src/readers/stac/asset-request.ts';
import { isRasterMediaType } from '../../../src/readers/stac/media-types.ts';
import { resolveHref } from '../../../src/readers/stac/href.ts';

describe('assets notation', () => {
  it('plain names and options', () => {
    assert.deepEqual(parseAssetRequest('B01'), { name: 'B01', key: 'B01' });
    assert.deepEqual(parseAssetRequest('B09|bidx=1,1'), { name: 'B09', key: 'B09|indexes=[1,1]', indexes: [1, 1] });
    assert.deepEqual(parseAssetRequest('B01|expression=b1*2'), { name: 'B01', key: 'B01|expression=b1*2', expression: 'b1*2' });
    // titiler's test_dependencies pin: data|bidx=1,2|expression=b1*b2
    assert.deepEqual(parseAssetRequest('data|bidx=1,2|expression=b1*b2'), {
      name: 'data',
      indexes: [1, 2],
      expression: 'b1*b2',
      key: 'data|indexes=[1,2]&expression=b1*b2',
    });
    assert.deepEqual(parseAssetRequest('rgb|bands=red,green'), { name: 'rgb', bands: ['red', 'green'], key: "rgb|bands=['red','green']" });
    // an option value may contain '=' (split on the first one)
    assert.equal((parseAssetRequest('a|expression=b1==2') as { expression: string }).expression, 'b1==2');
  });

  it('unknown option keys are ignored; options without "=" and non-integer bidx are errors', () => {
    assert.deepEqual(parseAssetRequest('B01|foo=bar'), { name: 'B01', key: 'B01' });
    assert.match(parseAssetRequest('B01|bidx') as string, /Invalid asset option 'bidx' in 'B01\|bidx'/);
    assert.match(parseAssetRequest('B01|bidx=1,a') as string, /invalid bidx value '1,a'/);
    assert.match(parseAssetRequest('B01|bidx=') as string, /invalid bidx value ''/);
    assert.deepEqual((parseAssetRequest('B01|bidx= 2') as { indexes: number[] }).indexes, [2]);
  });
});

describe('raster media types', () => {
  it('GeoTIFF/COG/JP2/HDF and missing types count, others do not', () => {
    for (const t of [
      undefined,
      'image/tiff; application=geotiff',
      'image/tiff; application=geotiff; profile=cloud-optimized',
      'image/tiff; profile=cloud-optimized; application=geotiff',
      'image/tiff;application=geotiff;profile=cloud-optimized',
      'IMAGE/TIFF; Application=GeoTIFF',
      'image/vnd.stac.geotiff; cloud-optimized=true',
      'image/tiff',
      'image/x.geotiff',
      'image/jp2',
      'application/x-hdf5',
      'application/x-hdf',
    ]) {
      assert.equal(isRasterMediaType(t), true, String(t));
    }
    for (const t of ['image/png', 'application/json', 'text/html', 'application/x-netcdf', 'image/tiff; application=geotiff; profile=other', 12]) {
      assert.equal(isRasterMediaType(t), false, String(t));
    }
  });
});

describe('asset hrefs', () => {
  it('resolve against local paths, file://, http(s):// and s3:// items', () => {
    assert.equal(resolveHref('./red.tif', '/data/items/item.json'), '/data/items/red.tif');
    assert.equal(resolveHref('red.tif', '/data/items/item.json'), '/data/items/red.tif');
    assert.equal(resolveHref('../red.tif', '/data/items/item.json'), '/data/red.tif');
    assert.equal(resolveHref('/abs/red.tif', '/data/items/item.json'), '/abs/red.tif');
    assert.equal(resolveHref('./red.tif', 'file:///data/items/item.json'), 'file:///data/items/red.tif');
    assert.equal(resolveHref('../red.tif', 'https://h.example/a/b/item.json?sig=1'), 'https://h.example/a/red.tif');
    assert.equal(resolveHref('/red.tif', 'http://h.example:8080/a/item.json'), 'http://h.example:8080/red.tif');
    assert.equal(resolveHref('red.tif', 's3://bucket/a/item.json'), 's3://bucket/a/red.tif');
    assert.equal(resolveHref('red.tif', '/vsicurl/https://h.example/a/item.json'), 'https://h.example/a/red.tif');
    assert.equal(resolveHref('red.tif', '/vsis3/bucket/a/item.json'), 's3://bucket/a/red.tif');
  });

  it('keeps absolute URLs', () => {
    assert.equal(resolveHref('https://other.example/x.tif', '/data/item.json'), 'https://other.example/x.tif');
    assert.equal(resolveHref('s3://b/k.tif', 'https://h.example/item.json'), 's3://b/k.tif');
    assert.equal(resolveHref('file:///data/x.tif', 'https://h.example/item.json'), 'file:///data/x.tif');
  });
});
