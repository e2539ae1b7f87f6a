import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compatibleGroups, dataVariables, describeGroup } from '../../../src/formats/array/describe.ts';
import { sampleStatistics } from '../../../src/formats/array/sample-stats.ts';
import { lonLat, memoryFile, newChunkCache, range } from './memory-array.ts';

test('describeGroup: coordinates (dimension coordinates, grid mappings) apart from data variables, like xarray with decode_coords="all"', () => {
  const file = memoryFile({
    attrs: { title: 't', _NCProperties: 'x' },
    variables: [
      ...lonLat(range(0, 4, 1), range(0, 3, 1)),
      { name: 'crs', dims: [], shape: [], attrs: { grid_mapping_name: 'latitude_longitude' } },
      { name: 'v', dims: ['lat', 'lon'], shape: [3, 4], dtype: 'int16', attrs: { grid_mapping: 'crs', DIMENSION_LIST: 'x' } },
    ],
  });
  const d = describeGroup(file);
  assert.deepEqual(Object.keys(d.coords), ['lon', 'lat', 'crs']);
  assert.deepEqual(d.data_vars, { v: { dims: ['lat', 'lon'], attrs: { grid_mapping: 'crs' }, dtype: 'int16', shape: [3, 4] } });
  assert.deepEqual(d.dims, { lon: 4, lat: 3 });
  assert.deepEqual(d.attrs, { title: 't' });
  assert.deepEqual(dataVariables(file), ['v']);
});

test('compatibleGroups: gridded groups outside /metadata/ first, then metadata ones; else any group with variables', () => {
  const grid = { variables: [{ name: 'v', dims: ['lat', 'lon'], shape: [2, 2] }] };
  const flat = { variables: [{ name: 'w', dims: ['n'], shape: [2] }] };
  const file = memoryFile({
    variables: [],
    groups: { METADATA: { variables: [], groups: { metadata: grid } }, science: { variables: [], groups: { grids: grid, other: flat } } },
  });
  assert.deepEqual(compatibleGroups(file), ['/science/grids', '/METADATA/metadata']);
  assert.deepEqual(compatibleGroups(memoryFile({ variables: [], groups: { a: flat } })), ['/a']);
});

test('sampleStatistics: deterministic, a bounded number of chunks, fill values dropped, CF decoded', async () => {
  // 10 × 10 int16 in 25 chunks of 2 × 2; value = i, fill at 0.
  const file = memoryFile({
    variables: [{ name: 'v', dims: ['y', 'x'], shape: [10, 10], chunks: [2, 2], dtype: 'int16', attrs: { _FillValue: 0, scale_factor: 0.5 } }],
  });
  const v = file.root.variables.get('v')!;
  const a = await sampleStatistics(file, v, newChunkCache());
  const b = await sampleStatistics(file, v, newChunkCache());
  assert.deepEqual(a, b);
  // Chunks 0, 8, 16, 24 of the 5 × 5 chunk grid: (0,0), (1,3), (3,1), (4,4).
  const values = [1, 10, 11, 26, 27, 36, 37, 62, 63, 72, 73, 88, 89, 98, 99].map((x) => x * 0.5);
  assert.equal(a!.min, Math.min(...values));
  assert.equal(a!.max, Math.max(...values));
  assert.equal(a!.mean, values.reduce((s, x) => s + x, 0) / values.length);
});
