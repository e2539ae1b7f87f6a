/**
 * Step generation (src/granule/timeseries/steps.ts) against every worked example of titiler-cmr
 * §5.1/§5.2 (its test_timeseries.py and test_xarray_backend.py), exactly: counts, first and last
 * steps, the 1 s / 1 µs nudges, open ends with a frozen clock, comma lists, the 995 cap text;
 * and the bad inputs (open start, zero/negative/malformed durations, date-only values).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { granuleMidpoint, OPEN_START_MESSAGE, planSteps, type StepPlanInput } from '../../src/granule/timeseries/steps.ts';
import { formatIsoDateTime, parseIsoDateTime } from '../../src/granule/timeseries/iso-datetime.ts';
import { isRastileError } from '../../src/errors.ts';

const plan = (temporal: string, step: string | undefined, extra: Partial<StepPlanInput> = {}): Promise<string[]> =>
  planSteps({
    temporal,
    ...(step !== undefined ? { step } : {}),
    mode: 'interval',
    maxSteps: 995,
    nowMs: Date.parse('2024-10-01T00:00:00Z'),
    granuleTimes: () => Promise.reject(new Error('no search expected')),
    ...extra,
  });

/** An interval step `a/b` as its two ends. */
const ends = (s: string): [string, string] => s.split('/') as [string, string];

async function rejects400(p: Promise<unknown>, message: string | RegExp): Promise<void> {
  await assert.rejects(p, (err: unknown) => {
    assert.ok(isRastileError(err, 'BadRequest'), `BadRequest, got ${String(err)}`);
    if (typeof message === 'string') assert.equal(err.message, message);
    else assert.match(err.message, message);
    return true;
  });
}

describe('time-series steps: titiler-cmr §5.1 worked examples', () => {
  it('P1M over 2023 (naive) → 12 intervals with 1 s nudges; P1Y and P10Y → one', async () => {
    const s = await plan('2023-01-01T00:00:00/2023-12-31T23:59:59', 'P1M');
    assert.equal(s.length, 12);
    assert.deepEqual(ends(s[0]!), ['2023-01-01T00:00:00', '2023-01-31T23:59:59']);
    assert.deepEqual(ends(s[1]!), ['2023-02-01T00:00:00', '2023-02-28T23:59:59']);
    assert.deepEqual(ends(s[11]!), ['2023-12-01T00:00:00', '2023-12-31T23:59:59']);
    for (const step of ['P1Y', 'P10Y']) {
      assert.deepEqual(await plan('2023-01-01T00:00:00/2023-12-31T23:59:59', step), ['2023-01-01T00:00:00/2023-12-31T23:59:59']);
    }
  });

  it('P3D over 10 days → 4, the last ending exactly at the end', async () => {
    const s = await plan('2023-01-01T00:00:00/2023-01-11T00:00:00', 'P3D');
    assert.deepEqual(s, [
      '2023-01-01T00:00:00/2023-01-03T23:59:59',
      '2023-01-04T00:00:00/2023-01-06T23:59:59',
      '2023-01-07T00:00:00/2023-01-09T23:59:59',
      '2023-01-10T00:00:00/2023-01-11T00:00:00',
    ]);
  });

  it('PT1H over 5 hours → 5, the last ending exactly at the end', async () => {
    const s = await plan('2023-01-01T00:00:00/2023-01-01T05:00:00', 'PT1H');
    assert.equal(s.length, 5);
    assert.deepEqual(ends(s[0]!), ['2023-01-01T00:00:00', '2023-01-01T00:59:59']);
    assert.deepEqual(ends(s[4]!), ['2023-01-01T04:00:00', '2023-01-01T05:00:00']);
  });

  it('PT0.5S over 1 s → two, with the 1 µs nudge; PT30S keeps the 1 s nudge', async () => {
    assert.deepEqual(await plan('2023-01-01T00:00:00/2023-01-01T00:00:01', 'PT0.5S'), [
      '2023-01-01T00:00:00/2023-01-01T00:00:00.499999',
      '2023-01-01T00:00:00.500000/2023-01-01T00:00:01',
    ]);
    const s = await plan('2023-01-01T00:00:00/2023-01-01T00:01:00', 'PT30S');
    assert.deepEqual(s, ['2023-01-01T00:00:00/2023-01-01T00:00:29', '2023-01-01T00:00:30/2023-01-01T00:01:00']);
  });

  it('point mode: P1M to 2023-05-01 → 5 points (the end included); P1W to 2023-10-25 → 43', async () => {
    const m = await plan('2023-01-01T00:00:00/2023-05-01T00:00:00', 'P1M', { mode: 'point' });
    assert.deepEqual(
      m,
      ['01', '02', '03', '04', '05'].map((mm) => `2023-${mm}-01T00:00:00/2023-${mm}-01T00:00:00`),
    );
    const w = await plan('2023-01-01T00:00:00/2023-10-25T00:00:00', 'P1W', { mode: 'point' });
    assert.equal(w.length, 43);
    assert.equal(w[42], '2023-10-22T00:00:00/2023-10-22T00:00:00');
  });

  it('GAMSSA day (§5.2): P1D → 1, PT1H → 24, P1W over 21 days → 3; keys in +00:00 form', async () => {
    const day = '2024-10-11T00:00:01Z/2024-10-11T23:59:59Z';
    assert.deepEqual(await plan(day, 'P1D'), ['2024-10-11T00:00:01+00:00/2024-10-11T23:59:59+00:00']);
    const hours = await plan(day, 'PT1H');
    assert.equal(hours.length, 24);
    assert.equal(hours[0], '2024-10-11T00:00:01+00:00/2024-10-11T01:00:00+00:00');
    assert.equal(hours[23], '2024-10-11T23:00:01+00:00/2024-10-11T23:59:59+00:00');
    assert.equal((await plan('2024-10-11T00:00:01Z/2024-10-31T23:59:59Z', 'P1W')).length, 3);
  });

  it('two days P1D: the keys test_xarray_backend asserts', async () => {
    assert.deepEqual(await plan('2024-10-11T00:00:00Z/2024-10-12T23:59:59Z', 'P1D'), [
      '2024-10-11T00:00:00+00:00/2024-10-11T23:59:59+00:00',
      '2024-10-12T00:00:00+00:00/2024-10-12T23:59:59+00:00',
    ]);
  });

  it('open end with the clock frozen at 2024-10-01: `start/..` and `start/` P1W → 40, the last ending at now', async () => {
    for (const t of ['2024-01-01T00:00:00Z/..', '2024-01-01T00:00:00Z/']) {
      const s = await plan(t, 'P1W');
      assert.equal(s.length, 40, t);
      assert.equal(s[39], '2024-09-30T00:00:00+00:00/2024-10-01T00:00:00+00:00');
    }
  });

  it('comma list: an instant, then 4 days P1D in point mode → 6', async () => {
    const s = await plan('2023-01-01T00:00:00Z,2024-01-01T00:00:00Z/2024-01-05T00:00:00Z', 'P1D', { mode: 'point' });
    assert.deepEqual(s, [
      '2023-01-01T00:00:00+00:00/2023-01-01T00:00:00+00:00',
      ...['01', '02', '03', '04', '05'].map((d) => `2024-01-${d}T00:00:00+00:00/2024-01-${d}T00:00:00+00:00`),
    ]);
  });

  it('a single datetime is one step whatever the step; start == end → one pair', async () => {
    assert.deepEqual(await plan('2024-10-11T00:00:00Z', 'P1D'), ['2024-10-11T00:00:00+00:00/2024-10-11T00:00:00+00:00']);
    assert.deepEqual(await plan('2024-10-11T00:00:00Z/2024-10-11T00:00:00Z', 'P1D'), ['2024-10-11T00:00:00+00:00/2024-10-11T00:00:00+00:00']);
  });

  it('calendar months clamp the day and carry it on (Jan 31 + P1M = Feb 29 in 2024, then Mar 29)', async () => {
    const s = await plan('2024-01-31T00:00:00Z/2024-04-30T00:00:00Z', 'P1M', { mode: 'point' });
    assert.deepEqual(
      s.map((x) => ends(x)[0]),
      ['2024-01-31T00:00:00+00:00', '2024-02-29T00:00:00+00:00', '2024-03-29T00:00:00+00:00', '2024-04-29T00:00:00+00:00'],
    );
  });

  it('the cap: P1D over 16 years → 400 with titiler-cmr text and the exact count; configurable', async () => {
    await rejects400(
      plan('2008-10-12T00:00:01Z/2024-10-12T23:59:59Z', 'P1D'),
      'this request (5845) exceeds the maximum number of distinct time series points/intervals of 995',
    );
    await rejects400(plan('2024-10-11T00:00:01Z/2024-10-11T23:59:59Z', 'PT1H', { maxSteps: 10 }), /this request \(24\) exceeds .* of 10$/);
    // a huge count is answered without building the steps
    await rejects400(plan('0001-01-01T00:00:00Z/9999-12-31T00:00:00Z', 'PT1S'), /^this request \(315537811200\) exceeds/);
  });
});

describe('time-series steps: bad input → 400', () => {
  it('open starts', async () => {
    for (const t of ['../2024-10-12T23:59:59Z', '/2024-10-12T23:59:59Z']) await rejects400(plan(t, 'P1D'), OPEN_START_MESSAGE);
  });
  it('malformed datetimes, date-only values and the single-digit day of test_timeseries_bbox_limit', async () => {
    for (const t of ['2024-10-11', 'yesterday', '2024-01-01T00:00:00Z/2024-01-1T23:59:59Z', '2024-13-01T00:00:00Z']) {
      await rejects400(plan(t, 'P1D'), `${t} is an invalid temporal input`);
    }
  });
  it('zero, negative and malformed durations, fractional months', async () => {
    const t = '2024-01-01T00:00:00Z/2024-02-01T00:00:00Z';
    await rejects400(plan(t, 'P0D'), /duration is zero/);
    await rejects400(plan(t, 'PT0S'), /duration is zero/);
    await rejects400(plan(t, '-P1D'), /negative/);
    for (const d of ['1D', 'P', 'PT', 'P1H', 'PXD', 'P1DT']) await rejects400(plan(t, d), /not a valid ISO 8601 duration/);
    await rejects400(plan(t, 'P0.5M'), /whole numbers/);
  });
  it('an interval that ends before it starts', async () => {
    await rejects400(plan('2024-02-01T00:00:00Z/2024-01-01T00:00:00Z', 'P1D'), /ends before it starts/);
  });
});

describe('datetimes and granule midpoints (Python isoformat)', () => {
  it('round-trips offsets, fractions and naive values', () => {
    for (const [input, out] of [
      ['2024-10-11T00:00:00Z', '2024-10-11T00:00:00+00:00'],
      ['2024-10-11T00:00:00.5+02:00', '2024-10-11T00:00:00.500000+02:00'],
      ['2024-10-11T00:00:00.1234567-0330', '2024-10-11T00:00:00.123456-03:30'],
      ['0001-01-01T00:00:00', '0001-01-01T00:00:00'],
    ] as const) {
      assert.equal(formatIsoDateTime(parseIsoDateTime(input)!), out);
    }
  });
  it('midpoints: begin + (end − begin) / 2, end missing → begin', () => {
    assert.equal(granuleMidpoint({ start: '2024-10-11T00:00:00.000Z', end: '2024-10-11T23:59:59.999Z' }), '2024-10-11T11:59:59.999500+00:00');
    assert.equal(granuleMidpoint({ start: '2024-10-11T00:00:00Z', end: '2024-10-12T00:00:00Z' }), '2024-10-11T12:00:00+00:00');
    assert.equal(granuleMidpoint({ start: '2024-10-11T00:00:00Z', end: null }), '2024-10-11T00:00:00+00:00');
    assert.equal(granuleMidpoint({ start: null, end: null }), null);
  });
});
