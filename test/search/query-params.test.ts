import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { granuleSearchParams, legacyGranuleSearchAliases } from '../../src/http/params/granule-search.ts';
import { RequestValidationError } from '../../src/http/validation/issues.ts';
import { openApiParameters, parseParams } from '../../src/http/validation/params.ts';
import { cmrBoundingBox, granuleSearchParams as cmrQuery, spatialFilter } from '../../src/search/cmr-params.ts';
import {
  granuleQueryFromParams,
  LISTING_COVERAGE_TOLERANCE,
  normalizeTemporal,
  parseBoundingBox,
  RASTER_COVERAGE_TOLERANCE,
} from '../../src/search/query-params.ts';

describe('query-params', () => {
  it('normalizeTemporal: a bare instant becomes t/t, intervals pass unchanged (titiler-cmr test_dependencies)', () => {
    assert.equal(normalizeTemporal('2024-01-01T00:00:00Z'), '2024-01-01T00:00:00Z/2024-01-01T00:00:00Z', 'instant');
    assert.equal(normalizeTemporal('2024-01-01T00:00:00Z/2024-01-02T00:00:00Z'), '2024-01-01T00:00:00Z/2024-01-02T00:00:00Z', 'interval');
    assert.equal(normalizeTemporal('2024-01-01T00:00:00Z/..'), '2024-01-01T00:00:00Z/..', 'open end');
    assert.equal(normalizeTemporal('2024-01-01T00:00:00Z,2024-01-02T00:00:00Z'), '2024-01-01T00:00:00Z,2024-01-02T00:00:00Z', 'CMR comma range left alone');
  });
  it('parseBoundingBox', () => {
    assert.deepEqual(parseBoundingBox('-91.705,48.179,-91.459,48.3'), [-91.705, 48.179, -91.459, 48.3], 'four numbers');
    assert.deepEqual(parseBoundingBox('170,-10,-170,10'), [170, -10, -170, 10], 'across the antimeridian');
    assert.equal(typeof parseBoundingBox('1,2,3'), 'string', 'three numbers');
    assert.equal(typeof parseBoundingBox('1,2,3,x'), 'string', 'not a number');
    assert.equal(typeof parseBoundingBox('0,10,1,5'), 'string', 'south above north');
    assert.equal(typeof parseBoundingBox('0,0,200,1'), 'string', 'longitude out of range');
  });
  it('granuleQueryFromParams: defaults, legacy aliases and sort keys', () => {
    assert.deepEqual(
      granuleQueryFromParams({}, { coverageTolerance: RASTER_COVERAGE_TOLERANCE }),
      {
        itemsLimit: 100,
        exitWhenFull: true,
        skipCovered: false,
        coverageTolerance: 0.01,
      },
      'defaults (raster)',
    );
    assert.deepEqual(
      granuleQueryFromParams(
        {
          concept_id: 'C_OLD',
          datetime: '2024-01-01T00:00:00Z',
          sort_key: [' cloud_cover', '-start_date'],
          attribute: ['string,MGRS_TILE_ID,15UWP'],
          orbit_number: 7,
          items_limit: 5,
          exitwhenfull: false,
          skipcovered: true,
        },
        { coverageTolerance: LISTING_COVERAGE_TOLERANCE },
      ),
      {
        itemsLimit: 5,
        exitWhenFull: false,
        skipCovered: true,
        coverageTolerance: 0,
        collectionConceptId: 'C_OLD',
        temporal: '2024-01-01T00:00:00Z/2024-01-01T00:00:00Z',
        sortKey: ['cloud_cover', '-start_date'],
        orbitNumber: 7,
        attribute: ['string,MGRS_TILE_ID,15UWP'],
      },
      'legacy names used when the new ones are absent; "+key" decoded as " key" is trimmed',
    );
    const both = granuleQueryFromParams({ collection_concept_id: 'C_NEW', concept_id: 'C_OLD', temporal: 'a/b', datetime: 'c/d' }, { coverageTolerance: 0 });
    assert.equal(both.collectionConceptId, 'C_NEW', 'new name wins');
    assert.equal(both.temporal, 'a/b', 'temporal wins');
  });
});

describe('HTTP parameter declarations (src/http/params/granule-search.ts)', () => {
  const defs = { ...granuleSearchParams({ coverageTolerance: RASTER_COVERAGE_TOLERANCE }), ...legacyGranuleSearchAliases };
  const parse = (query: Record<string, string | string[]>) => parseParams(defs, { query, path: {} });

  it('parses every parameter with its default', () => {
    const p = parse({ collection_concept_id: 'C1', bounding_box: '1,2,3,4', sort_key: ['a', '-b'], attribute: 'x,y', orbit_number: '3' });
    assert.deepEqual(p.bounding_box, [1, 2, 3, 4], 'bbox');
    assert.deepEqual(p.sort_key, ['a', '-b'], 'repeatable');
    assert.deepEqual(p.attribute, ['x,y'], 'one attribute');
    assert.equal(p.orbit_number, 3, 'int');
    assert.equal(p.items_limit, 100, 'items_limit default');
    assert.equal(p.exitwhenfull, true, 'exitwhenfull default');
    assert.equal(p.skipcovered, false, 'skipcovered default');
    assert.equal(p.coverage_tolerance, 0.01, 'raster tolerance default');
    assert.deepEqual(granuleQueryFromParams(p, { coverageTolerance: 0.01 }).boundingBox, [1, 2, 3, 4], 'feeds granuleQueryFromParams');
  });
  it('422 for a malformed bounding_box, a non-integer orbit_number and out-of-range values', () => {
    assert.throws(
      () => parse({ bounding_box: '1,2,3' }),
      (err: unknown) => err instanceof RequestValidationError && err.issues[0]!.loc.join('.') === 'query.bounding_box' && err.issues[0]!.type === 'value_error',
      'bbox',
    );
    assert.throws(
      () => parse({ orbit_number: '1,5' }),
      (err: unknown) => err instanceof RequestValidationError && err.issues[0]!.type === 'int_parsing',
      'orbit_number',
    );
    assert.throws(
      () => parse({ coverage_tolerance: '1.5' }),
      (err: unknown) => err instanceof RequestValidationError && err.issues[0]!.type === 'less_than_equal',
      'tolerance ≤ 1',
    );
    assert.throws(
      () => parse({ items_limit: '0' }),
      (err: unknown) => err instanceof RequestValidationError && err.issues[0]!.type === 'greater_than_equal',
      'items_limit ≥ 1',
    );
    assert.throws(
      () => parse({ exitwhenfull: 'maybe' }),
      (err: unknown) => err instanceof RequestValidationError && err.issues[0]!.type === 'bool_parsing',
      'bool',
    );
  });
  it('the granule-listing default tolerance is 0; legacy aliases are marked deprecated', () => {
    const listing = parseParams(granuleSearchParams({ coverageTolerance: LISTING_COVERAGE_TOLERANCE }), { query: {}, path: {} });
    assert.equal(listing.coverage_tolerance, 0, 'listing default');
    assert.equal(legacyGranuleSearchAliases.concept_id.opts.deprecated, true, 'hidden alias');
    const names = openApiParameters(granuleSearchParams({ coverageTolerance: 0 })).map((p) => p['name']);
    assert.deepEqual(
      names,
      [
        'collection_concept_id',
        'temporal',
        'granule_ur',
        'cloud_cover',
        'bounding_box',
        'sort_key',
        'orbit_number',
        'attribute',
        'items_limit',
        'exitwhenfull',
        'skipcovered',
        'coverage_tolerance',
      ],
      'documented parameters',
    );
  });
});

describe('cmr-params', () => {
  const base = { itemsLimit: 100, exitWhenFull: true, skipCovered: false, coverageTolerance: 0 };
  it('splits boxes at the antimeridian and sends them back as west > east', () => {
    const f = spatialFilter({ kind: 'bbox', bounds: [-180, -90, 180, 90] }, [170, -10, -170, 10]);
    assert.deepEqual(
      f,
      {
        kind: 'boxes',
        boxes: [
          [170, -10, 180, 10],
          [-180, -10, -170, 10],
        ],
      },
      'two pieces',
    );
    assert.equal(cmrBoundingBox((f as { boxes: [number, number, number, number][] }).boxes), '170,-10,-170,10', 'one CMR box');
  });
  it('touching boxes intersect in a line (titiler-cmr: shapely intersection is not empty)', () => {
    assert.deepEqual(spatialFilter({ kind: 'bbox', bounds: [0, 0, 1, 1] }, [1, 0, 2, 1]), { kind: 'boxes', boxes: [[1, 0, 1, 1]] }, 'shared edge');
    assert.deepEqual(spatialFilter({ kind: 'bbox', bounds: [0, 0, 1, 1] }, [1.5, 0, 2, 1]), { kind: 'empty' }, 'apart');
  });
  it('no area: the user bounding_box alone; no spatial parameter without either', () => {
    assert.deepEqual(
      cmrQuery({ ...base, collectionConceptId: 'C1', boundingBox: [1, 1, 1, 1] }, spatialFilter({ kind: 'none' }, [1, 1, 1, 1]), 20),
      [
        ['page_size', '20'],
        ['collection_concept_id', 'C1'],
        ['bounding_box', '1,1,1,1'],
      ],
      'as given',
    );
    assert.deepEqual(
      cmrQuery({ ...base, collectionConceptId: 'C1' }, spatialFilter({ kind: 'none' }, undefined), 20),
      [
        ['page_size', '20'],
        ['collection_concept_id', 'C1'],
      ],
      'nothing spatial',
    );
  });
});
