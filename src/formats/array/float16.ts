/**
 * IEEE 754 half precision (numpy float16, HDF5 16-bit floats, Zarr `<f2`/"float16"): read as
 * float32, which holds every half value exactly (numpy's `astype('f4')`). Node 20 has no
 * Float16Array, so the bits are converted through a 65536-entry table built on first use.
 */

let table: Float32Array | null = null;

/** The float value of half-precision bits `h` (0…65535). */
export function halfToFloat(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24; // zero and subnormals
  if (exp === 0x1f) return frac === 0 ? sign * Infinity : NaN;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}

function halfTable(): Float32Array {
  if (table === null) {
    table = new Float32Array(65536);
    for (let h = 0; h < 65536; h++) table[h] = halfToFloat(h);
  }
  return table;
}

/** Half-precision values stored in `bits` (machine order) as float32. */
export function halfsToFloat32(bits: Uint16Array): Float32Array {
  const t = halfTable();
  const out = new Float32Array(bits.length);
  for (let i = 0; i < bits.length; i++) out[i] = t[bits[i]!]!;
  return out;
}

/** `count` half-precision values from raw bytes in the given byte order, as float32. */
export function decodeHalfBytes(raw: Uint8Array, count: number, littleEndian: boolean): Float32Array {
  const t = halfTable();
  const out = new Float32Array(count);
  const lo = littleEndian ? 0 : 1;
  const hi = 1 - lo;
  for (let i = 0; i < count; i++) out[i] = t[raw[2 * i + lo]! | (raw[2 * i + hi]! << 8)]!;
  return out;
}

/** The half-precision bits of `x` rounded to nearest even (NaN → 0x7e00, numpy's quiet NaN). */
export function floatToHalfBits(x: number): number {
  if (Number.isNaN(x)) return 0x7e00;
  const sign = x < 0 || Object.is(x, -0) ? 0x8000 : 0;
  const a = Math.abs(x);
  if (a >= 65520) return sign | 0x7c00; // rounds to infinity
  if (a < 2 ** -24 / 2) return sign;
  if (a < 2 ** -14) return sign | roundEven(a / 2 ** -24); // subnormal
  let exp = Math.floor(Math.log2(a));
  if (2 ** exp > a) exp--;
  else if (2 ** (exp + 1) <= a) exp++;
  let frac = roundEven((a / 2 ** exp - 1) * 1024);
  if (frac === 1024) {
    frac = 0;
    exp++;
  }
  return sign | ((exp + 15) << 10) | frac;
}

function roundEven(v: number): number {
  const f = Math.floor(v);
  const d = v - f;
  return d > 0.5 || (d === 0.5 && f % 2 === 1) ? f + 1 : f;
}
