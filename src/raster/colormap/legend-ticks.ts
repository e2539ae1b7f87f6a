/**
 * Value labels of a colormap legend drawn for `rescale=min,max`: min, max and a few round values
 * between (steps of 1, 2, 2.5 or 5 × 10^k), each with its place along the ramp.
 *
 * A named colormap is a 256-entry table and rescale maps min..max linearly onto entries 0..255,
 * so value v is drawn by entry (v − min) / (max − min) × 255, whose ramp pixel (of 256) has its
 * centre at (entry + 0.5) / 256 of the ramp's length.
 */

export interface LegendTick {
  value: number;
  /** Place along the ramp, 0 = its start (the colormap's first entry), 1 = its end. */
  position: number;
}

/** The ramp position of a value for rescale [min, max] (min = max: the middle). */
export function rampPosition(value: number, min: number, max: number): number {
  const t = max > min ? (value - min) / (max - min) : 0.5;
  return (Math.min(1, Math.max(0, t)) * 255 + 0.5) / 256;
}

/** A round step near `span / count`: 1, 2, 2.5 or 5 × 10^k. */
function niceStep(span: number, count: number): number {
  const raw = span / count;
  const pow = 10 ** Math.floor(Math.log10(raw));
  const f = raw / pow;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10) * pow;
}

/** Rounds away binary noise (0.1 + 0.2) in tick values. */
const clean = (v: number): number => Number(v.toPrecision(12));

/** Labels for rescale [min, max]: min, max and round values between, none closer than half a step to min or max. */
export function legendTicks(min: number, max: number, count = 4): LegendTick[] {
  if (!(max > min)) return [{ value: min, position: rampPosition(min, min, max) }];
  const step = niceStep(max - min, count);
  const values = [min];
  for (let v = Math.ceil(min / step) * step; v < max; v += step) {
    const c = clean(v);
    if (c - min >= step / 2 && max - c >= step / 2) values.push(c);
  }
  values.push(max);
  return values.map((value) => ({ value, position: rampPosition(value, min, max) }));
}
