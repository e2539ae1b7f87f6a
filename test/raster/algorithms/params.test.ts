/**
 * algorithm_params validation. Expected messages are pydantic 2.13's `str(ValidationError)` for
 * TiTiler's models, without the "For further information visit …" lines.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isRastileError } from '../../../src/errors.ts';
import { validateAlgorithmParams } from '../../../src/raster/algorithms/index.ts';
import { paramJsonSchema, validateParams } from '../../../src/raster/algorithms/params.ts';

function rejects(id: string, params: Record<string, unknown>, message: string): void {
  assert.throws(
    () => validateAlgorithmParams(id, params),
    (e: unknown) => isRastileError(e, 'InvalidAlgorithmParams') && e.message === message,
  );
}

test('defaults are filled in; unknown keys are ignored (§13.3: azimuth 45, buffer 3)', () => {
  assert.deepEqual(validateAlgorithmParams('hillshade', {}), { azimuth: 45, angle_altitude: 45, buffer: 3, z_exaggeration: 1 });
  assert.deepEqual(validateAlgorithmParams('hillshade', { foo: 'bar', azimuth: 90 }).azimuth, 90);
  assert.deepEqual(validateAlgorithmParams('terrainrgb', {}), { interval: 0.1, baseval: -10000, nodata_height: null });
  assert.deepEqual(validateAlgorithmParams('contours', {}), { increment: 35, thickness: 1, minz: -12000, maxz: 8000 });
  assert.deepEqual(validateAlgorithmParams('slope', {}), { buffer: 3, z_exaggeration: 1 });
  assert.deepEqual(validateAlgorithmParams('normalizedIndex', { anything: 1 }), {});
});

test('lax coercions as pydantic does them', () => {
  assert.equal(validateAlgorithmParams('hillshade', { azimuth: '45.0' }).azimuth, 45);
  assert.equal(validateAlgorithmParams('hillshade', { azimuth: ' 45 ' }).azimuth, 45);
  assert.equal(validateAlgorithmParams('hillshade', { azimuth: true }).azimuth, 1);
  assert.equal(validateAlgorithmParams('hillshade', { azimuth: 90.0 }).azimuth, 90);
  assert.equal(validateAlgorithmParams('hillshade', { angle_altitude: ' 1e1 ' }).angle_altitude, 10);
  assert.equal(validateAlgorithmParams('terrarium', { nodata_height: null }).nodata_height, null);
  assert.equal(validateAlgorithmParams('terrarium', { nodata_height: '-12.5' }).nodata_height, -12.5);
});

test('range errors', () => {
  rejects(
    'hillshade',
    { azimuth: 400 },
    '1 validation error for HillShade\nazimuth\n  Input should be less than or equal to 360 [type=less_than_equal, input_value=400, input_type=int]',
  );
  rejects(
    'hillshade',
    { azimuth: -1, angle_altitude: 100.5 },
    '2 validation errors for HillShade\nazimuth\n  Input should be greater than or equal to 0 [type=greater_than_equal, input_value=-1, input_type=int]\nangle_altitude\n  Input should be less than or equal to 90 [type=less_than_equal, input_value=100.5, input_type=float]',
  );
  rejects(
    'hillshade',
    { z_exaggeration: 0 },
    '1 validation error for HillShade\nz_exaggeration\n  Input should be greater than or equal to 0.000001 [type=greater_than_equal, input_value=0, input_type=int]',
  );
  rejects(
    'slope',
    { z_exaggeration: 1e-7 },
    '1 validation error for Slope\nz_exaggeration\n  Input should be greater than or equal to 0.000001 [type=greater_than_equal, input_value=1e-07, input_type=float]',
  );
  rejects(
    'terrarium',
    { nodata_height: 1e6 + 0.5 },
    '1 validation error for Terrarium\nnodata_height\n  Input should be less than or equal to 99999 [type=less_than_equal, input_value=1000000.5, input_type=float]',
  );
  rejects(
    'hillshade',
    { angle_altitude: 'inf' },
    "1 validation error for HillShade\nangle_altitude\n  Input should be less than or equal to 90 [type=less_than_equal, input_value='inf', input_type=str]",
  );
  rejects(
    'contours',
    { buffer: 1000, thickness: 11 },
    '1 validation error for Contours\nthickness\n  Input should be less than or equal to 10 [type=less_than_equal, input_value=11, input_type=int]',
  );
});

test('type errors', () => {
  rejects(
    'hillshade',
    { azimuth: 1.5 },
    '1 validation error for HillShade\nazimuth\n  Input should be a valid integer, got a number with a fractional part [type=int_from_float, input_value=1.5, input_type=float]',
  );
  rejects(
    'hillshade',
    { azimuth: 'abc' },
    "1 validation error for HillShade\nazimuth\n  Input should be a valid integer, unable to parse string as an integer [type=int_parsing, input_value='abc', input_type=str]",
  );
  rejects(
    'hillshade',
    { azimuth: '1.5' },
    "1 validation error for HillShade\nazimuth\n  Input should be a valid integer, unable to parse string as an integer [type=int_parsing, input_value='1.5', input_type=str]",
  );
  rejects(
    'hillshade',
    { azimuth: null },
    '1 validation error for HillShade\nazimuth\n  Input should be a valid integer [type=int_type, input_value=None, input_type=NoneType]',
  );
  rejects(
    'hillshade',
    { azimuth: [1] },
    '1 validation error for HillShade\nazimuth\n  Input should be a valid integer [type=int_type, input_value=[1], input_type=list]',
  );
  rejects(
    'hillshade',
    { azimuth: { a: 1 } },
    "1 validation error for HillShade\nazimuth\n  Input should be a valid integer [type=int_type, input_value={'a': 1}, input_type=dict]",
  );
  rejects(
    'hillshade',
    { angle_altitude: 'x' },
    "1 validation error for HillShade\nangle_altitude\n  Input should be a valid number, unable to parse string as a number [type=float_parsing, input_value='x', input_type=str]",
  );
  rejects(
    'terrainrgb',
    { nodata_height: 'a' },
    "1 validation error for TerrainRGB\nnodata_height\n  Input should be a valid number, unable to parse string as a number [type=float_parsing, input_value='a', input_type=str]",
  );
  rejects(
    'terrainrgb',
    { interval: [1] },
    '1 validation error for TerrainRGB\ninterval\n  Input should be a valid number [type=float_type, input_value=[1], input_type=list]',
  );
});

test('unknown algorithm ids are a BadRequest', () => {
  assert.throws(
    () => validateAlgorithmParams('hillshad', {}),
    (e: unknown) => isRastileError(e, 'BadRequest'),
  );
});

test('a required parameter (custom model, §13.3 "missing required param → 400")', () => {
  const specs = [{ name: 'factor', type: 'integer' as const }];
  assert.deepEqual(validateParams('Multiply', specs, { factor: 3 }), { factor: 3 });
  assert.throws(
    () => validateParams('Multiply', specs, { other: 1 }),
    (e: unknown) =>
      isRastileError(e, 'InvalidAlgorithmParams') &&
      e.message === "1 validation error for Multiply\nfactor\n  Field required [type=missing, input_value={'other': 1}, input_type=dict]",
  );
  assert.deepEqual(paramJsonSchema(specs[0]), { title: 'Factor', type: 'integer' });
});
