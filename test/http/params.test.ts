/**
 * Parameter declarations and the helpers around them: Python float() parsing, deprecated/hidden
 * parameters in OpenAPI, required() typing, Python urlencode of links, size rules, HTML escaping.
 * Oracles: CPython 3 `float()` and `urllib.parse.urlencode`, rio-tiler's size rules.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { linkListPage } from '../../src/http/pages/html.ts';
import { assetsParams } from '../../src/http/params/assets.ts';
import { datasetParams } from '../../src/http/params/dataset.ts';
import { partSize, previewSize } from '../../src/http/params/image-size.ts';
import { encodePairs, pyUrlencode, queryString } from '../../src/http/query-string.ts';
import { RequestValidationError } from '../../src/http/validation/issues.ts';
import { openApiParameters, P, parseParams, parsePyFloat, type ParamDefs } from '../../src/http/validation/params.ts';
import { isProblem } from '../../src/http/validation/issues.ts';

const parse = <D extends ParamDefs>(defs: D, query: Record<string, string | string[]>) => parseParams(defs, { query, path: {} });

describe('parsePyFloat follows Python float()', () => {
  it('accepts what float() accepts', () => {
    // python3 -c "print(float('1e1_0'), float('1_0.5'), float(' -inf '), float('Infinity'), float('.5'), float('1.'))"
    const cases: Array<[string, number]> = [
      ['1e1_0', 1e10],
      ['1_0.5', 10.5],
      [' -inf ', -Infinity],
      ['Infinity', Infinity],
      ['.5', 0.5],
      ['1.', 1],
      ['+2E-3', 0.002],
    ];
    for (const [raw, want] of cases) assert.equal(parsePyFloat(raw), want, raw);
    assert.ok(Number.isNaN(parsePyFloat('nan') as number), 'nan');
    assert.ok(Number.isNaN(parsePyFloat('-NaN') as number), '-NaN');
  });
  it('rejects what float() rejects (ValueError)', () => {
    for (const raw of ['_1', '1_', '1__0', '1e_1', '.', '', '0x10', '1e', 'inf_', 'abc']) {
      assert.ok(isProblem(parsePyFloat(raw)), raw);
    }
  });
  it('P.float() reports float_parsing for "_1" and parses "1e1_0"', () => {
    assert.equal(parse({ v: P.float() }, { v: '1e1_0' }).v, 1e10);
    assert.throws(
      () => parse({ v: P.float() }, { v: '_1' }),
      (err: unknown) => err instanceof RequestValidationError && err.issues[0]!.type === 'float_parsing',
    );
  });
  it('nodata takes any Python float, including the special values', () => {
    assert.ok(Number.isNaN(parse(datasetParams, { nodata: 'nan' }).nodata!), 'nan');
    assert.equal(parse(datasetParams, { nodata: 'inf' }).nodata, Infinity, 'inf');
    assert.equal(parse(datasetParams, { nodata: '-inf' }).nodata, -Infinity, '-inf');
    assert.equal(parse(datasetParams, { nodata: '-9_999' }).nodata, -9999, 'underscores');
    assert.throws(
      () => parse(datasetParams, { nodata: 'invalid-value' }),
      (err: unknown) =>
        err instanceof RequestValidationError &&
        err.issues[0]!.type === 'value_error' &&
        err.issues[0]!.msg === "Value error, could not convert string to float: 'invalid-value'",
    );
  });
});

describe('deprecated and hidden parameters', () => {
  const defs = {
    kept: P.str().describe('Current name.'),
    old: P.str().deprecated().describe('Old name.'),
    alias: P.str().hidden().describe('Hidden alias.'),
  };
  it('OpenAPI marks deprecated parameters and leaves hidden ones out', () => {
    const doc = openApiParameters(defs);
    assert.deepEqual(
      doc.map((p) => [p['name'], p['deprecated'] ?? false]),
      [
        ['kept', false],
        ['old', true],
      ],
    );
  });
  it('hidden parameters are still parsed, and flagged deprecated', () => {
    assert.equal(parse(defs, { alias: 'x' }).alias, 'x');
    assert.equal(defs.alias.opts.deprecated, true);
    assert.equal(defs.alias.opts.hidden, true);
  });
  it('checks survive the builder chain', () => {
    const d = { n: P.int().ge(1).hidden().describe('n').as('N') };
    assert.throws(
      () => parse(d, { N: '0' }),
      (err: unknown) => err instanceof RequestValidationError && err.issues[0]!.type === 'greater_than_equal',
    );
  });
});

describe('required()', () => {
  it('a required list parses to an array (typed without undefined)', () => {
    const p = parse(assetsParams, { assets: ['a', 'b|bidx=1'] });
    const assets: Array<{ name: string }> = p.assets; // compile-time: no `| undefined`
    assert.deepEqual(
      assets.map((a) => a.name),
      ['a', 'b'],
    );
    assert.deepEqual(openApiParameters(assetsParams)[0]!['schema'], { type: 'array', items: { type: 'string' }, maxItems: 100 });
    assert.equal(openApiParameters(assetsParams)[0]!['required'], true);
  });
});

describe('query strings are encoded like Python urlencode', () => {
  it("`*` is escaped, `~` is not (python3 -c \"from urllib.parse import urlencode; print(urlencode([('expression', 'b1*2'), ('a', '~x y')]))\")", () => {
    assert.equal(
      encodePairs([
        ['expression', 'b1*2'],
        ['a', '~x y'],
      ]),
      '?expression=b1%2A2&a=~x+y',
    );
    assert.equal(pyUrlencode([['a b', 'x/y:z,w~_.-*é']]), 'a+b=x%2Fy%3Az%2Cw~_.-%2A%C3%A9');
    assert.equal(encodePairs([]), '');
  });
  it('queryString keeps order and repeats, drops keys case-insensitively', () => {
    assert.equal(queryString('/x?url=a%7Eb&bidx=1&TileMatrixSetId=W&bidx=2&expression=b1*2', ['tilematrixsetid']), '?url=a~b&bidx=1&bidx=2&expression=b1%2A2');
    assert.equal(queryString('/x', []), '');
  });
});

describe('image size rules', () => {
  it('preview: width or height drops max_size', () => {
    assert.deepEqual(previewSize({ max_size: 1024 }), { maxSize: 1024, width: undefined, height: undefined });
    assert.deepEqual(previewSize({ max_size: 1024, width: 100 }), { maxSize: undefined, width: 100, height: undefined });
    assert.deepEqual(previewSize({ max_size: 1024, height: 50 }), { maxSize: undefined, width: undefined, height: 50 });
  });
  it('part: max_size applies unless both width and height are given', () => {
    assert.deepEqual(partSize({ max_size: 512, width: 100 }), { maxSize: 512, width: 100, height: undefined });
    assert.deepEqual(partSize({ max_size: 512, width: 100, height: 50 }), { maxSize: undefined, width: 100, height: 50 });
    assert.deepEqual(partSize({}), { maxSize: undefined, width: undefined, height: undefined });
  });
});

describe('linkListPage', () => {
  it('escapes title, intro, hrefs and labels', () => {
    const html = linkListPage('T<i>', [{ href: 'http://x"><script>alert(1)</script>/a', label: '<b>' }], 'a & b');
    assert.ok(!html.includes('<script>'), html);
    assert.ok(
      html.includes('<h1>T&lt;i&gt;</h1><p>a &amp; b</p><ul><li><a href="http://x&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;/a">&lt;b&gt;</a></li></ul>'),
      html,
    );
  });
});
