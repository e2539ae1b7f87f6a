/**
 * `/algorithms/{id}` documents. Expected JSON produced by pydantic 2.13 from TiTiler's models
 * (model_json_schema → the AlgorithmFactory metadata recipe). JSON.parse/JSON.stringify
 * normalises 45.0 to 45, which is the only difference a JS serializer shows.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isRastileError } from '../../../src/errors.ts';
import { ALGORITHM_IDS, describeAlgorithm } from '../../../src/raster/algorithms/index.ts';

const PYDANTIC: Record<string, string> = {
  hillshade:
    '{"title":"Hillshade","description":"Create hillshade from DEM dataset.","inputs":{"nbands":1},"outputs":{"nbands":1,"dtype":"uint8","min":null,"max":null},"parameters":{"azimuth":{"default":45,"maximum":360,"minimum":0,"title":"Azimuth","type":"integer"},"angle_altitude":{"default":45.0,"maximum":90.0,"minimum":-90.0,"title":"Angle Altitude","type":"number"},"buffer":{"default":3,"maximum":99,"minimum":0,"title":"Buffer","type":"integer"},"z_exaggeration":{"default":1.0,"maximum":1000000.0,"minimum":1e-06,"title":"Z Exaggeration","type":"number"}}}',
  slope:
    '{"title":"Slope","description":"Calculate degrees of slope from DEM dataset.","inputs":{"nbands":1},"outputs":{"nbands":1,"dtype":"float32","min":[0.0],"max":[90.0]},"parameters":{"buffer":{"default":3,"description":"Buffer size for edge effects","maximum":99,"minimum":0,"title":"Buffer","type":"integer"},"z_exaggeration":{"default":1.0,"maximum":1000000.0,"minimum":1e-06,"title":"Z Exaggeration","type":"number"}}}',
  terrarium:
    '{"title":"Terrarium","description":"Encode DEM into RGB (Mapzen Terrarium).","inputs":{"nbands":1},"outputs":{"nbands":3,"dtype":"uint8","min":null,"max":null},"parameters":{"nodata_height":{"anyOf":[{"maximum":99999.0,"minimum":-99999.0,"type":"number"},{"type":"null"}],"default":null,"title":"Nodata Height"}}}',
  cast: '{"title":"Cast data to Integer","description":"Cast data to Integer.","inputs":{"nbands":null},"outputs":{"nbands":null,"dtype":"uint8","min":[0],"max":[255]},"parameters":{}}',
};

test('registry order (§9.1)', () => {
  assert.deepEqual(
    [...ALGORITHM_IDS],
    [
      'hillshade',
      'slope',
      'contours',
      'normalizedIndex',
      'terrarium',
      'terrainrgb',
      'cast',
      'ceil',
      'floor',
      'min',
      'max',
      'median',
      'mean',
      'std',
      'var',
      'sum',
      'grayscale',
      'bitonal',
    ],
  );
});

for (const [id, json] of Object.entries(PYDANTIC)) {
  test(`describeAlgorithm(${id}) matches pydantic's schema, key order included`, () => {
    assert.equal(JSON.stringify(describeAlgorithm(id)), JSON.stringify(JSON.parse(json)));
  });
}

test('titles, descriptions and metadata of the other algorithms (§9.3)', () => {
  const brief = (id: string) => {
    const d = describeAlgorithm(id);
    return [d.title, d.description, d.inputs.nbands, d.outputs.nbands, d.outputs.dtype, Object.keys(d.parameters).join(',')];
  };
  assert.deepEqual(brief('contours'), ['Contours', 'Create contours from DEM dataset.', 1, 3, 'uint8', 'increment,thickness,minz,maxz']);
  assert.deepEqual(brief('normalizedIndex'), ['Normalized Difference Index', 'Compute normalized difference index from two bands.', 2, 1, 'float32', '']);
  assert.deepEqual(brief('terrainrgb'), ['TerrainRGB', 'Encode DEM into RGB (Mapbox Terrain RGB).', 1, 3, 'uint8', 'interval,baseval,nodata_height']);
  assert.deepEqual(brief('ceil'), ['Round data to the smallest integer', 'Round data to the smallest integer.', null, null, 'uint8', '']);
  assert.deepEqual(brief('floor'), ['Round data to the largest integer', 'Round data to the largest integer.', null, null, 'uint8', '']);
  assert.deepEqual(brief('min'), ['Min', 'Return Min values along the `bands` axis.', null, 1, null, '']);
  assert.deepEqual(brief('max'), ['Max', 'Return Max values along the `bands` axis.', null, 1, null, '']);
  assert.deepEqual(brief('median'), ['Median', 'Return Median values along the `bands` axis.', null, 1, 'float64', '']);
  assert.deepEqual(brief('mean'), ['Mean', 'Return Mean values.', null, 1, 'float64', '']);
  assert.deepEqual(brief('std'), ['Standard deviation', 'Return the Standard Deviation along the `bands` axis.', null, 1, 'float64', '']);
  assert.deepEqual(brief('var'), ['Variance', 'Return Variance along the `bands` axis.', null, 1, 'float64', '']);
  assert.deepEqual(brief('sum'), ['Sum', 'Return Sum values along the `bands` axis.', null, 1, null, '']);
  assert.deepEqual(brief('grayscale'), [
    'Transform a RGB Image to Grayscale',
    'Transform a RGB Image to Grayscale using the ITU-R 601-2 luma.',
    null,
    1,
    null,
    '',
  ]);
  assert.deepEqual(brief('bitonal'), [
    'Transform an Image to Bitonal',
    'All values larger than 127 are set to 255 (white), all other values to 0 (black).',
    null,
    1,
    'uint8',
    '',
  ]);
  assert.deepEqual(describeAlgorithm('contours').parameters.minz, {
    default: -12000,
    maximum: 99999,
    minimum: -99999,
    title: 'Minz',
    type: 'integer',
  });
  assert.deepEqual(describeAlgorithm('normalizedIndex').outputs, { nbands: 1, dtype: 'float32', min: [-1], max: [1] });
});

test('every registered id is described; unknown ids are rejected', () => {
  for (const id of ALGORITHM_IDS) assert.equal(typeof describeAlgorithm(id).title, 'string');
  assert.throws(
    () => describeAlgorithm('hillshad'),
    (e: unknown) => isRastileError(e, 'BadRequest'),
  );
  assert.throws(
    () => describeAlgorithm('toString'),
    (e: unknown) => isRastileError(e, 'BadRequest'),
  );
});
