/**
 * fast-check arbitraries for the API fuzzer: a parameter's value drawn from its OpenAPI schema and
 * just outside it (boundaries, NaN, ±Infinity, 1e400, -0, empty, very long, unicode, inverted pairs,
 * huge lists), with pools of meaningful values for the parameters whose free-form strings would
 * otherwise never reach the code behind them (dataset URLs, expressions, colormaps, CRSs…).
 */
import fc from 'fast-check';

export type Schema = Record<string, unknown>;

/** Values no schema allows, sent to every kind of parameter now and then. */
const HOSTILE = [
  '',
  ' ',
  'NaN',
  'nan',
  'inf',
  '-inf',
  'Infinity',
  '-Infinity',
  '1e400',
  '-1e400',
  '-0',
  '1e-400',
  '5e-324',
  '1.7976931348623157e308',
  '99999999999999999999',
  '-9007199254740993',
  '0x10',
  '1_000',
  '١٢',
  '日本語🗺️',
  '%',
  '%00',
  '\u0000',
  '"',
  "'",
  '[]',
  '{}',
  '{"a":',
  'null',
  '1,2',
  '10,1',
  ',',
  'a'.repeat(5000),
  '('.repeat(200),
  'é'.repeat(3000),
];
export const hostile = (): fc.Arbitrary<string> => fc.constantFrom(...HOSTILE);

/** In-range draws of large integer domains stay ≤ this (an 8192² render is a load test, not a fuzz case). */
const SMALL_CAP = 1024;

function integerValues(s: Schema): fc.Arbitrary<string> {
  const min = typeof s['minimum'] === 'number' ? s['minimum'] : typeof s['exclusiveMinimum'] === 'number' ? s['exclusiveMinimum'] + 1 : undefined;
  const max = typeof s['maximum'] === 'number' ? s['maximum'] : undefined;
  const lo = min ?? -5;
  const hi = Math.min(max ?? lo + 30, lo + SMALL_CAP);
  const edges: number[] = [];
  if (min !== undefined) edges.push(min, min - 1);
  if (max !== undefined) edges.push(max + 1);
  return fc.oneof(
    { weight: 6, arbitrary: fc.integer({ min: lo, max: hi }).map(String) },
    { weight: 2, arbitrary: edges.length ? fc.constantFrom(...edges).map(String) : fc.integer().map(String) },
    { weight: 1, arbitrary: fc.integer({ min: -(2 ** 31), max: 2 ** 31 }).map(String) },
  );
}

function numberValues(s: Schema): fc.Arbitrary<string> {
  const min = typeof s['minimum'] === 'number' ? s['minimum'] : typeof s['exclusiveMinimum'] === 'number' ? s['exclusiveMinimum'] : undefined;
  const max = typeof s['maximum'] === 'number' ? s['maximum'] : undefined;
  const edges = [min, max].filter((v): v is number => v !== undefined).flatMap((v) => [v, v - 1e-9, v + 1e-9]);
  return fc.oneof(
    { weight: 4, arbitrary: fc.double({ min: min ?? -1000, max: max ?? 1000, noNaN: true }).map(String) },
    { weight: 2, arbitrary: fc.double().map(String) },
    { weight: 1, arbitrary: edges.length ? fc.constantFrom(...edges).map(String) : fc.constant('0.5') },
  );
}

/** One value of a scalar schema (string form, as sent in a URL). */
export function scalarValues(s: Schema): fc.Arbitrary<string> {
  if (Array.isArray(s['enum'])) {
    const values = (s['enum'] as unknown[]).map(String);
    return fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...values) }, { weight: 1, arbitrary: fc.string() }, { weight: 1, arbitrary: hostile() });
  }
  if (Array.isArray(s['anyOf'])) return fc.oneof(...(s['anyOf'] as Schema[]).map(scalarValues));
  switch (s['type']) {
    case 'integer':
      return fc.oneof({ weight: 8, arbitrary: integerValues(s) }, { weight: 1, arbitrary: hostile() });
    case 'number':
      return fc.oneof({ weight: 8, arbitrary: numberValues(s) }, { weight: 1, arbitrary: hostile() });
    case 'boolean':
      return fc.constantFrom('true', 'false', '1', '0', 'yes', 'maybe', '');
    default: {
      const maxLength = typeof s['maxLength'] === 'number' ? s['maxLength'] : undefined;
      return fc.oneof(
        { weight: 4, arbitrary: fc.string({ maxLength: 40 }) },
        { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
        { weight: 1, arbitrary: maxLength ? fc.constant('b'.repeat(maxLength + 1)) : hostile() },
        { weight: 2, arbitrary: hostile() },
      );
    }
  }
}

/** Meaningful values of named parameters, mixed with schema draws. */
const POOLS: Record<string, readonly string[]> = {
  expression: [
    'b1',
    'b1*2',
    '(b1-b2)/(b1+b2)',
    'b1/0',
    'sqrt(-b1)',
    'b1**1e308',
    'b1;b1+1;b1-1',
    'where(b1>100,1,0)',
    'b999',
    `${'('.repeat(70)}b1${')'.repeat(70)}`,
    'b1+'.repeat(1500) + 'b1',
    '__import__("os")',
  ],
  rescale: ['0,255', '0,3000', '255,0', '0,0', 'nan,1', '1e309,1', '-inf,inf', '[0,1000]', '0', 'a,b', '-1e38,1e38'],
  histogram_range: ['0,255', '255,0', '0,0', '1e400,1', '-1e308,1e308'],
  histogram_bins: ['10', '1', '0', '10000', '10001', '1000000000', '1,2,3', '3,2,1', '0,1e400', '0,1,1,2'],
  colormap: [
    '{"1":[255,0,0,255],"2":[0,255,0,255]}',
    '[[[0,100],[255,0,0,255]],[[100,200],[0,0,255,255]]]',
    '[[[100,0],[255,0,0,255]]]',
    '[[[0,1e400],[0,0,0,0]]]',
    '{"1":"#ff0000"}',
    '{"1":[300,0,0]}',
    '{}',
    '[[]]',
    '{"a":[1,2,3]}',
  ],
  colormap_name: ['viridis', 'terrain', 'cfastie', 'nope'],
  color_formula: ['gamma rgb 1.5', 'sigmoidal rgb 10 0.5', 'saturation 1.2', 'gamma rgb 1e400', 'gamma rgb 0', 'sigmoidal r -1 2', 'nope'],
  algorithm_params: [
    '{}',
    '{"azimuth":45}',
    '{"azimuth":1e400}',
    '{"increment":0}',
    '{"increment":-5}',
    '{"thickness":1e9}',
    '{"buffer":1e9}',
    '[1]',
    '{"minz":10,"maxz":1}',
  ],
  crs: [
    'epsg:4326',
    'epsg:3857',
    'epsg:32618',
    'epsg:999999',
    '+proj=merc +a=0',
    '+proj=ortho +lat_0=91',
    '+proj=ortho +lat_0=45 +lon_0=15',
    '+proj=utm +zone=99',
    'ESRI:102001',
    'garbage',
  ],
  nodata: ['nan', 'inf', '-inf', '0', '-9999', '1e400', '65535', 'x'],
  p: ['2', '50', '98', '0', '100', '101', '-1'],
  c: ['0', '1', '255', 'nan', '1e400'],
  bidx: ['1', '2', '3', '0', '-1', '65536'],
  temporal: ['2024-05-01T00:00:00Z/2024-05-31T00:00:00Z', '2024-05-01/', '/2024-05-02', 'yesterday', '2024-13-45'],
  bounding_box: ['14,45,16,47', '16,45,14,47', 'nan,0,1,1', '1,2,3'],
  cloud_cover: ['0,20', '20,0', ',', 'a,b'],
  assets_regex: ['B0[0-9]', '(', '.*', 'B0[2-4]'],
  zooms: ['WebMercatorQuad::0,5', '*::0,1', 'WebMercatorQuad::30,0'],
};
POOLS['dst_crs'] = POOLS['crs']!;
POOLS['coord_crs'] = POOLS['crs']!;

export function namedValues(name: string, schema: Schema, pools: Record<string, readonly string[]>): fc.Arbitrary<string> {
  const pool = pools[name] ?? POOLS[name];
  return pool ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...pool) }, { weight: 1, arbitrary: scalarValues(schema) }) : scalarValues(schema);
}

/** Values of one query parameter (one or more for arrays, sometimes more than maxItems). */
export function queryValues(name: string, schema: Schema, pools: Record<string, readonly string[]>): fc.Arbitrary<string[]> {
  if (schema['type'] === 'array') {
    const items = (schema['items'] as Schema | undefined) ?? {};
    const one = namedValues(name, items, pools);
    const maxItems = typeof schema['maxItems'] === 'number' ? schema['maxItems'] : 100;
    return fc.oneof(
      { weight: 8, arbitrary: fc.array(one, { minLength: 1, maxLength: 3 }) },
      { weight: 1, arbitrary: one.map((v) => Array.from({ length: maxItems + 1 }, () => v)) },
    );
  }
  return namedValues(name, schema, pools).map((v) => [v]);
}
