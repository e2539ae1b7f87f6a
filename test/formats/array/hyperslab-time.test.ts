import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isRastileError } from '../../../src/errors.ts';
import { axisValueToTime, cfTimeAxis, CF_CALENDARS, timeToAxisValue } from '../../../src/formats/array/cf-time.ts';
import { readHyperslab } from '../../../src/formats/array/hyperslab.ts';
import { memoryFile, newChunkCache, reads } from './memory-array.ts';

test('hyperslab: assembled from chunks (edges, partial chunks), missing chunks read as the fill value', async () => {
  const shape = [5, 7, 9];
  const file = memoryFile({
    variables: [{ name: 'v', dims: ['t', 'y', 'x'], shape, chunks: [2, 3, 4], dtype: 'int32', fillValue: -7, missing: ['0,0,0'] }],
  });
  const v = file.root.variables.get('v')!;
  const start = [0, 1, 2];
  const count = [4, 5, 7];
  const out = await readHyperslab(file, v, { start, count }, newChunkCache());
  let k = 0;
  for (let t = 0; t < count[0]; t++)
    for (let y = 0; y < count[1]; y++)
      for (let x = 0; x < count[2]; x++) {
        const [gt, gy, gx] = [start[0] + t, start[1] + y, start[2] + x];
        const inMissing = gt < 2 && gy < 3 && gx < 4;
        assert.equal(out[k++], inMissing ? -7 : (gt * 7 + gy) * 9 + gx, `at ${gt},${gy},${gx}`);
      }
});

test('hyperslab: decoded chunks are cached and shared', async () => {
  const file = memoryFile({ variables: [{ name: 'v', dims: ['y', 'x'], shape: [8, 8], chunks: [4, 4] }] });
  const v = file.root.variables.get('v')!;
  const cache = newChunkCache();
  const before = reads.count;
  await Promise.all([readHyperslab(file, v, { start: [0, 0], count: [8, 8] }, cache), readHyperslab(file, v, { start: [1, 1], count: [6, 6] }, cache)]);
  await readHyperslab(file, v, { start: [0, 0], count: [2, 2] }, cache);
  assert.equal(reads.count - before, 4);
});

test('hyperslab: a chunk larger than the chunk limit is a clear MaxSizeExceeded, not a read', async () => {
  const file = memoryFile({ variables: [{ name: 'big', dims: ['y', 'x'], shape: [100, 100], chunks: [100, 100], dtype: 'float64' }] });
  const v = file.root.variables.get('big')!;
  await assert.rejects(
    readHyperslab(file, v, { start: [0, 0], count: [1, 1] }, newChunkCache(1000)),
    (e) => isRastileError(e, 'MaxSizeExceeded') && /\/big/.test(e.message),
  );
});

// Expected values: cftime 1.6 (Debian), date2num(<date>, 'hours since 1850-01-01 00:00:00', calendar)
// for 2000-03-01T12:00, 1582-10-15T00:00, 1500-03-01T00:00, 2001-02-28T06:30; and
// num2date(100000.5, 'days since 1850-01-01', calendar).
const CFTIME: Record<string, [number[], string]> = {
  standard: [[1316316, -2342352, -3066384, 1325046.5], '2123-10-17T12:00:00'],
  gregorian: [[1316316, -2342352, -3066384, 1325046.5], '2123-10-17T12:00:00'],
  proleptic_gregorian: [[1316316, -2342352, -3066624, 1325046.5], '2123-10-17T12:00:00'],
  noleap: [[1315428, -2340792, -3064584, 1324158.5], '2123-12-22T12:00:00'],
  '365_day': [[1315428, -2340792, -3064584, 1324158.5], '2123-12-22T12:00:00'],
  all_leap: [[1319052, -2347200, -3072960, 1327782.5], '2123-03-23T12:00:00'],
  '366_day': [[1319052, -2347200, -3072960, 1327782.5], '2123-03-23T12:00:00'],
  '360_day': [[1297452, -2308704, -3022560, 1306014.5], '2127-10-11T12:00:00'],
  julian: [[1316340, -2342400, -3066672, 1325070.5], '2123-10-15T12:00:00'],
};

test('CF times: every calendar, both ways, matches cftime', () => {
  const dates = ['2000-03-01T12:00:00', '1582-10-15T00:00:00', '1500-03-01T00:00:00', '2001-02-28T06:30:00'];
  for (const cal of CF_CALENDARS) {
    const [hours, back] = CFTIME[cal];
    const axis = cfTimeAxis('hours since 1850-01-01 00:00:00', cal)!;
    dates.forEach((d, i) => assert.equal(timeToAxisValue(axis, d), hours[i], `${cal} ${d}`));
    const days = cfTimeAxis('days since 1850-01-01', cal)!;
    assert.equal(axisValueToTime(days, 100000.5), back, cal);
    for (const d of dates) assert.equal(axisValueToTime(axis, timeToAxisValue(axis, d)), d, `${cal} round trip ${d}`);
  }
});

test('CF times: zones, CF-style epochs, bad input', () => {
  const axis = cfTimeAxis('seconds since 1981-1-1 0:0:0', undefined)!;
  assert.equal(timeToAxisValue(axis, '1981-01-01T01:00:00+00:00'), 3600);
  assert.equal(timeToAxisValue(axis, '1981-01-01T01:00:00Z'), 3600);
  assert.equal(timeToAxisValue(axis, '1981-01-01T03:00:00+02:00'), 3600);
  assert.equal(timeToAxisValue(axis, '1981-01-02'), 86400);
  assert.equal(cfTimeAxis('meters', undefined), null);
  assert.throws(
    () => timeToAxisValue(axis, 'yesterday'),
    (e) => isRastileError(e, 'BadRequest'),
  );
  const d360 = cfTimeAxis('days since 2000-01-01', '360_day')!;
  assert.equal(timeToAxisValue(d360, '2000-02-30'), 59);
  assert.throws(() => timeToAxisValue(cfTimeAxis('days since 2000-01-01', 'noleap')!, '2000-02-29'), /not a date of the noleap calendar/);
  assert.throws(
    () => cfTimeAxis('days since 2000-01-01', 'martian'),
    (e) => isRastileError(e, 'UnsupportedFeature'),
  );
});
