/**
 * The mask as a band in the data dtype, for `.npy` and GeoTIFF output (TiTiler §5.4): dtype
 * minimum where masked, dtype maximum where valid (0/255 for uint8, 0/65535 for uint16,
 * −32768/32767 for int16, ∓3.4e38 for float32). A partial alpha a (1..254) maps linearly.
 * (TiTiler's quirk of casting float masks to uint8 PNG alpha does not apply: PNG/WebP alpha is
 * always the 0..255 alpha.)
 */
import { allocate, dtypeRange, isFloat, type DType, type TypedArray } from '../../dtype.ts';

export function maskBand(alpha: Uint8Array, dtype: DType): TypedArray {
  if (dtype === 'uint8') return alpha;
  const [lo, hi] = dtypeRange(dtype);
  const out = allocate(dtype, alpha.length);
  const float = isFloat(dtype);
  for (let i = 0; i < alpha.length; i++) {
    const a = alpha[i];
    if (a === 0) out[i] = lo;
    else if (a === 255) out[i] = hi;
    else {
      const t = a / 255;
      const v = lo * (1 - t) + hi * t;
      out[i] = float ? v : Math.round(v);
    }
  }
  return out;
}

/**
 * 8-bit alpha a → 16-bit PNG alpha, as rio-tiler does: trunc(a / 255 · 65535). Applied as the
 * PNG samples are interleaved (interleave.ts), not as a plane of its own.
 */
export const ALPHA16 = Uint16Array.from({ length: 256 }, (_, a) => Math.trunc((a / 255) * 65535));
