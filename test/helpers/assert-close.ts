import assert from 'node:assert/strict';

/**
 * Deep comparison of a JSON response with an oracle, numbers within a relative tolerance; the
 * oracle writes NaN as the string "NaN", which our JSON answers as null.
 */
export function assertClose(actual: unknown, wanted: unknown, tol: number, where: string): void {
  if (wanted === 'NaN') return assert.equal(actual, null, where);
  if (typeof wanted === 'number') {
    assert.equal(typeof actual, 'number', `${where}: ${JSON.stringify(actual)}`);
    const a = actual as number;
    assert.ok(Math.abs(a - wanted) <= tol * Math.max(1, Math.abs(wanted)), `${where}: ${a} vs ${wanted}`);
    return;
  }
  if (Array.isArray(wanted)) {
    assert.ok(Array.isArray(actual) && actual.length === wanted.length, `${where}: length ${JSON.stringify(actual)}`);
    wanted.forEach((w, i) => assertClose((actual as unknown[])[i], w, tol, `${where}[${i}]`));
    return;
  }
  if (wanted !== null && typeof wanted === 'object') {
    for (const [k, v] of Object.entries(wanted)) assertClose((actual as Record<string, unknown>)?.[k], v, tol, `${where}.${k}`);
    return;
  }
  assert.deepEqual(actual, wanted, where);
}
