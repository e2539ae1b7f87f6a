import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { legendTicks, rampPosition } from '../../../src/raster/colormap/legend-ticks.ts';

describe('legendTicks', () => {
  it('min, max and round values between, none within half a step of either end', () => {
    assert.deepEqual(
      legendTicks(12, 845).map((t) => t.value),
      [12, 250, 500, 845], // step 250; 750 is 95 from 845, under half a step
    );
    assert.deepEqual(
      legendTicks(0, 3000).map((t) => t.value),
      [0, 1000, 2000, 3000], // step 1000 (3000/4 = 750 → 1000)
    );
    assert.deepEqual(
      legendTicks(-1, 1).map((t) => t.value),
      [-1, -0.5, 0, 0.5, 1],
    );
    assert.deepEqual(
      legendTicks(0.1, 0.4).map((t) => t.value),
      [0.1, 0.2, 0.3, 0.4], // no 0.30000000000000004
    );
  });

  it('positions: entry (v − min)/(max − min) × 255 of 256, at its pixel centre', () => {
    const t = legendTicks(0, 255);
    assert.equal(t[0]!.position, 0.5 / 256);
    assert.equal(t.at(-1)!.position, 255.5 / 256);
    assert.equal(rampPosition(100, 0, 255), 100.5 / 256);
    assert.equal(rampPosition(-10, 0, 255), 0.5 / 256); // clamped like the rescale
    assert.deepEqual(legendTicks(5, 5), [{ value: 5, position: 128 / 256 }]);
  });
});
