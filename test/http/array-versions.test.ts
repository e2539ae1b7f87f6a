/**
 * Never stale: a NetCDF file rewritten in place is read again (the array dataset cache checks the
 * file's version on every use, and the selection's grid, coordinates and chunks of the old
 * version are not served any more).
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fixture, q, startTestServer } from '../helpers/test-server.ts';

test('a NetCDF file changed in place: the next request reads the new values', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'rastile-array-'));
  const file = path.join(dir, 'sst.nc');
  copyFileSync(fixture('array', 'sst-nc3.nc'), file);
  const server = await startTestServer((c) => {
    c.sources.localRoots = [...c.sources.localRoots, dir];
  });
  try {
    // ice at lon 355 (wrapped: −5), lat 85, time 2000-03-01: the file's last value (big-endian float32).
    const url = `/zarr/point/-5,85?url=${q(file)}&variable=ice&sel=time=2000-03-01`;
    const before = await server.getJson<{ values: number[] }>(url);
    assert.equal(before.status, 200, JSON.stringify(before.body));
    assert.ok(Math.abs(before.body.values[0] - 0.8) < 1e-6, String(before.body.values[0]));
    const bytes = readFileSync(file);
    bytes.writeFloatBE(0.25, bytes.length - 4);
    writeFileSync(file, bytes);
    const later = new Date(Date.now() + 5000);
    utimesSync(file, later, later);
    const after = await server.getJson<{ values: number[] }>(url);
    assert.equal(after.body.values[0], 0.25);
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
