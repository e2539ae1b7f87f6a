import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { granuleAssets, granuleDataHosts } from '../../src/search/granule-assets.ts';
import { parseGranule } from '../../src/search/parse-granule.ts';
import type { UmmItem } from '../helpers/cmr-standin.ts';
import { loadRecording, recordingsAvailable } from '../helpers/cmr-replay.ts';
import { loadGranuleFixtures } from './granule-fixtures.ts';

const fixtures = loadGranuleFixtures('https://data.example.test');
const granule = (n: number) => parseGranule(fixtures.items[n - 1]!);
const key = (gr: string) => `rastile-test-protected/RASTILE_GRAN.001/${gr}`;

describe('granuleAssets on the fixture records', () => {
  it('without a regex: positional keys, https and s3 hrefs merged per file', () => {
    const g = granule(1);
    const assets = granuleAssets(g);
    assert.deepEqual(
      assets.map((a) => a.key),
      ['0', '1', '2'],
      'positional keys in RelatedUrls order',
    );
    assert.deepEqual(
      assets[0],
      {
        key: '0',
        href: `https://data.example.test/${key(g.granuleUr)}/${g.granuleUr}.B02.tif`,
        directHref: `s3://${key(g.granuleUr)}/${g.granuleUr}.B02.tif`,
        fileName: `${g.granuleUr}.B02.tif`,
        ext: '.tif',
      },
      'first asset',
    );
  });
  it('with a regex: the matched text is the key; unmatched files are dropped', () => {
    const assets = granuleAssets(granule(1), /B0[2-4]/);
    assert.deepEqual(
      assets.map((a) => a.key),
      ['B02', 'B03', 'B04'],
      'band keys',
    );
    assert.deepEqual(
      granuleAssets(granule(1), /B0[3]/).map((a) => a.key),
      ['B03'],
      'one band',
    );
    assert.deepEqual(granuleAssets(granule(1), /nothing/), [], 'no match');
  });
  it('a global or sticky regex matches every file from its start, and is left untouched', () => {
    const global = /B0[2-4]/g;
    assert.deepEqual(
      granuleAssets(granule(1), global).map((a) => a.key),
      ['B02', 'B03', 'B04'],
      'no lastIndex carried between links',
    );
    assert.equal(global.lastIndex, 0, "the caller's regex is not advanced");
    const sticky = /B0[2-4]/y;
    assert.deepEqual(
      granuleAssets(granule(1), sticky).map((a) => a.key),
      ['B02', 'B03', 'B04'],
      'sticky flag dropped: searched anywhere',
    );
    const plain = /B0[2-4]/;
    assert.deepEqual(
      granuleAssets(granule(1), plain).map((a) => a.key),
      ['B02', 'B03', 'B04'],
      'plain regex',
    );
    assert.deepEqual(
      granuleAssets(granule(1), plain).map((a) => a.key),
      ['B02', 'B03', 'B04'],
      'same result when reused',
    );
  });
  it('links not listed in ArchiveAndDistributionInformation are ignored (the .md5 of G2)', () => {
    const assets = granuleAssets(granule(2));
    assert.equal(assets.length, 3, 'three data files, no .md5');
    assert.ok(
      assets.every((a) => a.ext === '.tif'),
      'only .tif',
    );
  });
  it('granuleDataHosts lists the https data hosts', () => {
    assert.deepEqual(granuleDataHosts(granule(1)), ['data.example.test'], 'one host');
  });
});

describe('granuleAssets on synthetic records', () => {
  const item = (urls: Array<Record<string, string>>, names?: string[]): UmmItem => ({
    meta: { 'concept-id': 'G1-X', 'native-id': 'g', 'collection-concept-id': 'C1-X' },
    umm: {
      RelatedUrls: urls,
      ...(names ? { DataGranule: { ArchiveAndDistributionInformation: names.map((Name) => ({ Name })) } } : {}),
    },
  });
  it('keeps an asset with only an https link or only an s3 link (titiler-cmr would fail)', () => {
    const g = parseGranule(
      item([
        { URL: 'https://h/a/x.nc', Type: 'GET DATA' },
        { URL: 's3://b/a/y.nc', Type: 'GET DATA VIA DIRECT ACCESS' },
      ]),
    );
    assert.deepEqual(
      granuleAssets(g).map(({ key, href, directHref }) => ({ key, href, directHref })),
      [
        { key: '0', href: 'https://h/a/x.nc', directHref: undefined },
        { key: '1', href: undefined, directHref: 's3://b/a/y.nc' },
      ],
      'both kept',
    );
  });
  it('skips OPeNDAP links and non-data link types; a later duplicate replaces an earlier one', () => {
    const g = parseGranule(
      item([
        { URL: 'https://h/a/x.nc', Type: 'GET DATA' },
        { URL: 'https://opendap/x', Type: 'USE SERVICE API', Subtype: 'OPENDAP DATA' },
        { URL: 'https://opendap/x.nc', Type: 'GET DATA', Subtype: 'OPENDAP DATA' },
        { URL: 'https://h/a/x.nc.md5', Type: 'EXTENDED METADATA' },
        { URL: 'https://mirror/a/x.nc', Type: 'GET DATA' },
      ]),
    );
    assert.deepEqual(granuleAssets(g), [{ key: '0', href: 'https://mirror/a/x.nc', fileName: 'x.nc', ext: '.nc' }], 'one asset, last link wins');
  });
  it('ignores an ArchiveAndDistributionInformation list that matches no link', () => {
    const g = parseGranule(item([{ URL: 'https://h/a/x.tif', Type: 'GET DATA' }], ['other.tif']));
    assert.equal(granuleAssets(g).length, 1, 'not filtered to nothing');
  });
  it('a global regex does not carry state between links', () => {
    const g = parseGranule(
      item([
        { URL: 'https://h/a/s.B01.tif', Type: 'GET DATA' },
        { URL: 'https://h/a/s.B02.tif', Type: 'GET DATA' },
      ]),
    );
    assert.deepEqual(
      granuleAssets(g, /B\d\d/g).map((a) => a.key),
      ['B01', 'B02'],
      'both matched',
    );
  });
});

describe('granuleAssets on recorded CMR items', { skip: !recordingsAvailable() && 'no ../shared/fixtures/cmr' }, () => {
  const items = (name: string) => (loadRecording(name)[0]!.response.body as { items: UmmItem[] }).items;
  it('HLS with assets_regex=B[0-9][0-9] gives B01…B11 with s3 and https hrefs', () => {
    const g = parseGranule(items('test_rasterio_backend/test_rasterio_part')[0]!);
    const assets = granuleAssets(g, /B[0-9][0-9]/);
    assert.deepEqual(assets.map((a) => a.key).sort(), ['B01', 'B02', 'B03', 'B04', 'B05', 'B06', 'B07', 'B09', 'B10', 'B11'], 'band keys (HLSL30 has no B08)');
    const b04 = assets.find((a) => a.key === 'B04')!;
    assert.equal(b04.directHref, 's3://lp-prod-protected/HLSL30.020/HLS.L30.T15UWP.2024283T165135.v2.0/HLS.L30.T15UWP.2024283T165135.v2.0.B04.tif', 's3');
    assert.equal(
      b04.href,
      'https://data.lpdaac.earthdatacloud.nasa.gov/lp-prod-protected/HLSL30.020/HLS.L30.T15UWP.2024283T165135.v2.0/HLS.L30.T15UWP.2024283T165135.v2.0.B04.tif',
      'https',
    );
    assert.deepEqual(
      granuleAssets(g, /Fmask/).map((a) => a.key),
      ['Fmask'],
      'Fmask',
    );
    assert.equal(granuleAssets(g).length, 15, 'without regex: 15 files, keys "0"…"14"');
  });
  it('test_get_assets: the first granule has asset B01 with regex B01', () => {
    const g = parseGranule(items('test_backend/test_get_assets')[0]!);
    assert.deepEqual(
      granuleAssets(g, /B01/).map((a) => a.key),
      ['B01'],
      'B01',
    );
  });
  it('GAMSSA: one NetCDF asset "0" (the .md5 is EXTENDED METADATA)', () => {
    const g = parseGranule(items('test_xarray_backend/test_xarray_part')[0]!);
    const assets = granuleAssets(g);
    assert.equal(assets.length, 1, 'one asset');
    assert.equal(assets[0]!.key, '0', 'key');
    assert.equal(assets[0]!.ext, '.nc', 'extension');
    assert.equal(
      assets[0]!.href,
      'https://archive.podaac.earthdata.nasa.gov/podaac-ops-cumulus-protected/GAMSSA_28km-ABOM-L4-GLOB-v01/20241011120000-ABOM-L4_GHRSST-SSTfnd-GAMSSA_28km-GLOB-v02.0-fv01.0.nc',
      'https',
    );
  });
});
