/**
 * The error kinds, their constructors, the one status table of the HTTP edge, and what the JSON
 * body shows of an error's context (never a local path the client did not send).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ERROR_KINDS, Errors, RastileError, isRastileError, type RastileErrorKind } from '../../src/errors.ts';
import { errorBody, STATUS_BY_KIND } from '../../src/http/error-status.ts';

/** One call of every constructor in `Errors` (except `wrap`, tested below). */
const CONSTRUCTED: Record<Exclude<keyof typeof Errors, 'wrap'>, RastileError> = {
  badRequest: Errors.badRequest('m'),
  notImplemented: Errors.notImplemented('m'),
  sourceNotFound: Errors.sourceNotFound('m'),
  sourceForbidden: Errors.sourceForbidden('m'),
  sourceUnauthorized: Errors.sourceUnauthorized('m'),
  upstream: Errors.upstream('m'),
  upstreamTimeout: Errors.upstreamTimeout('m'),
  invalidFormat: Errors.invalidFormat('m'),
  unsupported: Errors.unsupported('m'),
  invalidCrs: Errors.invalidCrs('m'),
  tileOutsideBounds: Errors.tileOutsideBounds(1, 2, 3),
  pointOutsideBounds: Errors.pointOutsideBounds(),
  invalidExpression: Errors.invalidExpression('m'),
  missingBands: Errors.missingBands('m'),
  invalidBandIndex: Errors.invalidBandIndex('m'),
  missingAssets: Errors.missingAssets('m'),
  invalidAssetName: Errors.invalidAssetName('m'),
  invalidColorFormat: Errors.invalidColorFormat('m'),
  invalidAlgorithmParams: Errors.invalidAlgorithmParams('m'),
  maxSize: Errors.maxSize('m'),
  noData: Errors.noData('m'),
  overloaded: Errors.overloaded('m'),
  requestTimeout: Errors.requestTimeout('m'),
  mosaicUnavailable: Errors.mosaicUnavailable('m'),
  sourceChanged: Errors.sourceChanged('m'),
  internal: Errors.internal('m'),
};

describe('error kinds and the status table', () => {
  it('the table maps exactly the kinds, each to an HTTP status', () => {
    assert.deepEqual(Object.keys(STATUS_BY_KIND).sort(), [...ERROR_KINDS].sort());
    for (const kind of ERROR_KINDS) {
      const s = STATUS_BY_KIND[kind];
      assert.ok(Number.isInteger(s) && s >= 200 && s <= 599, `${kind}: ${s}`);
    }
  });

  it('only server-side kinds are 5xx; Internal is 500, a client mistake never is', () => {
    const fiveHundreds = ERROR_KINDS.filter((k) => STATUS_BY_KIND[k] >= 500).sort();
    assert.deepEqual(fiveHundreds, ['Internal', 'NotImplemented', 'Overloaded', 'RequestTimeout', 'SourceChanged', 'UpstreamError', 'UpstreamTimeout']);
    assert.equal(STATUS_BY_KIND.Internal, 500);
    assert.equal(STATUS_BY_KIND.BadRequest, 400);
    assert.equal(STATUS_BY_KIND.InvalidCrs, 400);
    assert.equal(STATUS_BY_KIND.InvalidFormat, 400);
    assert.equal(STATUS_BY_KIND.NoData, 204);
  });

  it('every kind has its constructor in Errors', () => {
    const kinds = new Set<RastileErrorKind>(Object.values(CONSTRUCTED).map((e) => e.kind));
    assert.deepEqual([...kinds].sort(), [...ERROR_KINDS].sort());
    for (const [name, err] of Object.entries(CONSTRUCTED)) {
      assert.ok(err instanceof RastileError && err instanceof Error, name);
      assert.equal(err.name, `RastileError(${err.kind})`);
    }
    assert.equal(CONSTRUCTED.tileOutsideBounds.message, 'Tile(x=1, y=2, z=3) is outside bounds');
    assert.equal(CONSTRUCTED.pointOutsideBounds.message, 'Point is outside dataset bounds');
  });

  it('constructors keep the cause and the context', () => {
    const cause = new Error('ENOENT');
    const e = Errors.sourceNotFound('File not found: a.tif', { cause, context: { url: 'a.tif' } });
    assert.equal(e.cause, cause);
    assert.deepEqual(e.context, { url: 'a.tif' });
    assert.ok(isRastileError(e, 'SourceNotFound'));
    assert.ok(!isRastileError(e, 'BadRequest'));
    assert.equal(Errors.badRequest('x').context, undefined);
    assert.ok(!('cause' in Errors.badRequest('x')), 'no cause property when none is given');
  });

  it('wrap prefixes the message, merges the context and keeps kind and cause', () => {
    const inner = Errors.invalidBandIndex('Band 4 does not exist', { context: { band: 4 } });
    const outer = Errors.wrap(inner, "Asset 'B04': ", { asset: 'B04' });
    assert.equal(outer.kind, 'InvalidBandIndex');
    assert.equal(outer.message, "Asset 'B04': Band 4 does not exist");
    assert.deepEqual(outer.context, { band: 4, asset: 'B04' });
    assert.equal(outer.cause, inner);
  });
});

describe('errorBody: detail and the safe context fields', () => {
  it('detail alone without context', () => {
    assert.deepEqual(errorBody(Errors.badRequest('bad'), {}), { detail: 'bad' });
  });

  it('identifiers are shown next to detail', () => {
    const e = Errors.invalidFormat('Corrupt block', {
      context: { ifd: 2, band: 1, variable: 'sst', parameter: 'bidx', asset: 'B04', granule: 'G1', crs: 'EPSG:1' },
    });
    assert.deepEqual(errorBody(e, undefined), {
      detail: 'Corrupt block',
      ifd: 2,
      band: 1,
      variable: 'sst',
      parameter: 'bidx',
      asset: 'B04',
      granule: 'G1',
      crs: 'EPSG:1',
    });
  });

  it('a local path is shown only when it is what the client sent as ?url=', () => {
    const e = Errors.sourceNotFound('File not found', { context: { url: '/data/a.tif' } });
    assert.deepEqual(errorBody(e, { url: '/data/a.tif' }), { detail: 'File not found', url: '/data/a.tif' });
    assert.deepEqual(errorBody(e, { url: 'item.json' }), { detail: 'File not found' });
    assert.deepEqual(errorBody(e, null), { detail: 'File not found' });
    const file = Errors.sourceNotFound('x', { context: { url: 'file:///etc/passwd' } });
    assert.deepEqual(errorBody(file, {}), { detail: 'x' });
  });

  it('remote URLs lose credentials, query and fragment unless the client sent them', () => {
    const signed = 'https://user:pw@example.com/a/b.tif?X-Amz-Signature=secret#f';
    const e = Errors.upstream('HTTP 500', { context: { url: signed } });
    assert.deepEqual(errorBody(e, {}), { detail: 'HTTP 500', url: 'https://example.com/a/b.tif' });
    assert.deepEqual(errorBody(e, { url: signed }), { detail: 'HTTP 500', url: signed });
    const s3 = Errors.sourceNotFound('NoSuchKey', { context: { url: 's3://bucket/key/x.tif' } });
    assert.deepEqual(errorBody(s3, {}), { detail: 'NoSuchKey', url: 's3://bucket/key/x.tif' });
  });
});
