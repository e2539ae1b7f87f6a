/** Expressions are parsed once per text and compiled once per parsed expression, then shared. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isRastileError } from '../../../src/errors.ts';
import { compileExpression, parseExpression } from '../../../src/raster/expression/index.ts';

test('the same text gives the same parsed and compiled objects', () => {
  const text = 'b1 * 2 + b3;(b2 - b1) / (b2 + b1)';
  const p = parseExpression(text);
  assert.equal(parseExpression(text), p);
  assert.equal(p.trees.length, p.blocks.length);
  assert.deepEqual(p.trees[0], {
    type: 'binary',
    op: '+',
    left: { type: 'binary', op: '*', left: { type: 'band', index: 1 }, right: { type: 'num', value: 2, isInt: true } },
    right: { type: 'band', index: 3 },
  });
  assert.equal(compileExpression(p), compileExpression(p));
  assert.equal(compileExpression(parseExpression(text)), compileExpression(parseExpression(text)));
  assert.notEqual(parseExpression('b1*2'), p);
});

test('shared parsed expressions cannot be modified', () => {
  const p = parseExpression('b2+b1');
  assert.ok(Object.isFrozen(p) && Object.isFrozen(p.blocks) && Object.isFrozen(p.bandIndexes) && Object.isFrozen(p.trees[0]));
  assert.throws(() => (p.bandIndexes as number[]).push(3), TypeError);
  assert.deepEqual(parseExpression('b2+b1').bandIndexes, [1, 2]);
});

test('a shared compiled expression keeps no state between evaluations', () => {
  const c = compileExpression(parseExpression('b1 + b2'));
  const m1 = new Uint8Array([255, 0, 255]);
  const a = c.evaluate([undefined, new Uint8Array([1, 2, 250]), new Uint8Array([10, 20, 30])], [undefined, m1, m1], 3);
  const f = c.evaluate([undefined, new Float32Array([0.5, 1, 2]), new Float32Array([1, 1, 1])], [], 3);
  const b = c.evaluate([undefined, new Uint8Array([1, 2, 250]), new Uint8Array([10, 20, 30])], [undefined, m1, m1], 3);
  assert.equal(a.dtype, 'int32');
  assert.deepEqual([...a.bands[0]], [11, 22, 280]);
  assert.equal(f.dtype, 'float32');
  assert.deepEqual([...f.bands[0]], [1.5, 2, 3]);
  assert.deepEqual([...f.mask], [255, 255, 255]);
  assert.deepEqual([...b.bands[0]], [11, 22, 280]);
  assert.notEqual(a.bands[0], b.bands[0], 'fresh outputs per evaluation');
  assert.notEqual(a.mask, m1, 'the input mask is not handed out');
  assert.deepEqual([...a.mask], [255, 0, 255]);
});

test('invalid expressions are not cached: every parse throws', () => {
  for (let i = 0; i < 2; i++) {
    assert.throws(
      () => parseExpression('b1 +'),
      (err: unknown) => isRastileError(err, 'InvalidExpression'),
    );
  }
});
