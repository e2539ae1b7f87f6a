/**
 * The Python-emulation helpers (src/util/python.ts) against CPython itself (/usr/bin/python3, run
 * by the test): repr(float), round(x) and round(x, n) on edge cases and seeded random doubles,
 * and repr() of JSON values.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { pyFloat, pyFloatRepr, pyRepr, pyRound, pyTypeName } from '../../src/util/python.ts';

const PYTHON = '/usr/bin/python3';
const skip = existsSync(PYTHON) ? false : `${PYTHON} not installed`;

/** Runs `code` with the JSON `input` on stdin; returns its JSON stdout. */
function python<T>(code: string, input: unknown): T {
  return JSON.parse(execFileSync(PYTHON, ['-c', code], { input: JSON.stringify(input), encoding: 'utf8' })) as T;
}

/** Exact text of a double that Python's float() reads back to the same double (String(-0) is '0'). */
const exact = (v: number): string => (Object.is(v, -0) ? '-0.0' : String(v));

/** Seeded doubles over many magnitudes, plus the edges of repr's exponent form and of rounding. */
function samples(): number[] {
  const edges = [
    0,
    -0,
    1,
    -1,
    0.1,
    1 / 3,
    2.5,
    -2.5,
    0.5,
    -0.5,
    1.5,
    0.125,
    2.675,
    1.005,
    99.995,
    66.66666666666667,
    1e16,
    9999999999999998,
    1e15,
    123456789012345680,
    1e-4,
    0.00009999999999999999,
    1e-5,
    1.5e-300,
    5e-324,
    1.7976931348623157e308,
    -1e22,
    1e21,
    123456789.125,
    Infinity,
    -Infinity,
    NaN,
    -0.001,
    -1e-10,
  ];
  let seed = 12345;
  const rand = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 2 ** 32;
  };
  const random: number[] = [];
  for (let i = 0; i < 300; i++) {
    const exp = Math.floor(rand() * 44) - 22;
    const v = (rand() - 0.5) * 2 * 10 ** exp;
    random.push(i % 3 === 0 ? Math.round(v * 1000) / 1000 : v); // some short decimals (ties near .xx5)
  }
  return [...edges, ...random];
}

test('pyFloatRepr is repr(float), including -0.0, exponent form below 1e-4 and from 1e16', { skip }, () => {
  const values = samples();
  const want = python<string[]>('import json,sys; print(json.dumps([repr(float(s)) for s in json.load(sys.stdin)]))', values.map(exact));
  values.forEach((v, i) => assert.equal(pyFloatRepr(v), want[i], exact(v)));
  assert.equal(pyFloatRepr(-0), '-0.0');
  assert.equal(pyFloatRepr(0), '0.0');
});

test('pyRound(x) is round(x) (ties to even) and pyRound(x, n) is round(x, n) (exact binary value)', { skip }, () => {
  const values = samples().filter((v) => Number.isFinite(v) && Math.abs(v) < 1e15);
  const code = `import json,sys
xs = [float(s) for s in json.load(sys.stdin)]
print(json.dumps({'int': [round(x) for x in xs], 'nd': [[repr(round(x, n)) for n in (1, 2, 3)] for x in xs]}))`;
  const want = python<{ int: number[]; nd: string[][] }>(code, values.map(exact));
  values.forEach((v, i) => {
    assert.equal(pyRound(v) + 0, want.int[i], `round(${exact(v)})`); // + 0: Python's int has no -0
    [1, 2, 3].forEach((n, k) => assert.equal(pyFloatRepr(pyRound(v, n)), want.nd[i][k], `round(${exact(v)}, ${n})`));
  });
});

test('pyFloat reads back every repr', { skip }, () => {
  for (const v of samples()) {
    const back = pyFloat(pyFloatRepr(v));
    if (Number.isNaN(v)) assert.ok(Number.isNaN(back));
    else assert.equal(back, v, exact(v));
  }
});

test('pyRepr and pyTypeName of JSON values match Python on the parsed JSON', { skip }, () => {
  const values: unknown[] = [
    null,
    true,
    false,
    45,
    -3,
    0.5,
    1e-7,
    'plain',
    "it's",
    'say "hi"',
    `both ' and "`,
    'back\\slash',
    'tab\tnew\nline',
    ['a', 1.5, null],
    { k: [1, { n: 'v' }] },
  ];
  const want = python<Array<[string, string]>>('import json,sys; print(json.dumps([[repr(v), type(v).__name__] for v in json.load(sys.stdin)]))', values);
  values.forEach((v, i) => {
    assert.equal(pyRepr(v), want[i][0], JSON.stringify(v));
    assert.equal(pyTypeName(v), want[i][1], JSON.stringify(v));
  });
});
