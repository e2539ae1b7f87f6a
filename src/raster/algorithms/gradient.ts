/**
 * `numpy.gradient(band)` on a masked band (what TiTiler's hillshade and slope call), evaluated
 * for the pixels that survive the buffer crop.
 *
 * numpy: along each axis, interior (f[i+1] − f[i−1]) / 2, first/last (f[1] − f[0]) and
 * (f[n−1] − f[n−2]); integer input is computed in float64, float32 stays float32. axis 0 (rows)
 * is returned as `gx`, axis 1 (columns) as `gy`, as TiTiler names them.
 *
 * numpy.ma: a gradient is masked when either sample it reads is masked (so a lone masked pixel
 * is NOT masked itself, its 4 neighbours are), and where the division gives a non-finite value
 * (NaN/±Inf samples act like masked ones).
 */
import { Errors } from '../../errors.ts';
import type { TypedArray } from '../../dtype.ts';
import { mustYield, yieldToLoop } from '../../util/cooperate.ts';

export interface GradientField {
  width: number;
  height: number;
  gx: Float64Array;
  gy: Float64Array;
  /** 255 where both gradients are valid. */
  valid: Uint8Array;
}

export async function maskedGradient(band: TypedArray, mask: Uint8Array, width: number, height: number, buffer: number, f32: boolean): Promise<GradientField> {
  if (width < 2 || height < 2) {
    throw Errors.badRequest('Shape of array too small to calculate a numerical gradient, at least (edge_order + 1) elements are required.');
  }
  const outW = width - 2 * buffer;
  const outH = height - 2 * buffer;
  if (outW <= 0 || outH <= 0) {
    throw Errors.badRequest(`buffer=${buffer} removes the whole ${width}x${height} image`);
  }
  const n = outW * outH;
  const gx = new Float64Array(n);
  const gy = new Float64Array(n);
  const valid = new Uint8Array(n);
  let o = 0;
  for (let r = buffer; r < buffer + outH; r++) {
    if (mustYield()) await yieldToLoop();
    // rows read along axis 0, and the divisor
    const r0 = r === 0 ? 0 : r - 1;
    const r1 = r === height - 1 ? r : r + 1;
    const dr = r === 0 || r === height - 1 ? 1 : 2;
    for (let c = buffer; c < buffer + outW; c++, o++) {
      const c0 = c === 0 ? 0 : c - 1;
      const c1 = c === width - 1 ? c : c + 1;
      const dc = c === 0 || c === width - 1 ? 1 : 2;
      const up = r0 * width + c;
      const down = r1 * width + c;
      const left = r * width + c0;
      const right = r * width + c1;
      let x = band[down] - band[up];
      let y = band[right] - band[left];
      if (f32) {
        x = Math.fround(Math.fround(x) / dr);
        y = Math.fround(Math.fround(y) / dc);
      } else {
        x /= dr;
        y /= dc;
      }
      gx[o] = x;
      gy[o] = y;
      const ok = mask[up] !== 0 && mask[down] !== 0 && mask[left] !== 0 && mask[right] !== 0 && Number.isFinite(x) && Number.isFinite(y);
      valid[o] = ok ? 255 : 0;
    }
  }
  return { width: outW, height: outH, gx, gy, valid };
}
