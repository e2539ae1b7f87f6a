/** pyFloat follows CPython 3.11's float(str) (expected values from /usr/bin/python3). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pyFloat } from '../../src/util/python.ts';

test('accepted forms', () => {
  const cases: Array<[string, number]> = [
    ['1_000.000_1e1_0', 10000001000000],
    ['.5', 0.5],
    ['5.', 5],
    ['-.5e-3', -0.0005],
    [' 1 ', 1],
    ['\t\n1\r\v\f', 1],
    ['InFiNiTy', Infinity],
    ['-iNF', -Infinity],
    ['1e400', Infinity],
    ['-1e-400', -0],
    // non-ASCII whitespace and decimal digits, as CPython maps them to ASCII
    ['\x851', 1],
    ['\xa01\u3000', 1],
    ['١٢.٥', 12.5],
    ['٣e٢', 300],
    ['𝟏𝟐', 12],
  ];
  for (const [text, want] of cases) assert.equal(pyFloat(text), want, JSON.stringify(text));
  for (const nan of ['+nan', '-nan', 'NaN']) assert.ok(Number.isNaN(pyFloat(nan)), nan);
});

test('ValueError forms give null', () => {
  const bad = [
    '1__0',
    '_1',
    '1_',
    '1._5',
    '1_.5',
    '.',
    '',
    '  ',
    'nan(1)',
    '0x10',
    '1e',
    'e5',
    '1 2',
    '+-1',
    'inf_',
    '\x1c1',
    '1\x1f',
    '\ufeff1',
    '١٢٫٥',
    '1\u20002',
  ];
  for (const text of bad) assert.equal(pyFloat(text), null, JSON.stringify(text));
});
