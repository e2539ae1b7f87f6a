/**
 * numpy's float → integer `astype` casts as they behave on x86-64 (cvttsd2si): truncate toward
 * zero through a 32-bit signed integer. The one place these C cast rules live; the render
 * pipeline, colormaps and algorithms all use it.
 */

/** float → int32: truncate toward zero; NaN and out-of-range values become -2147483648. */
export function castInt32(v: number): number {
  const t = Math.trunc(v);
  return t >= -2147483648 && t <= 2147483647 ? t : -2147483648;
}

/**
 * float → uint8: the int32 cast, low byte kept. Out-of-range values and NaN become 0
 * (0x80000000 & 255), negative in-range values wrap (-1.5 → 255), 300.7 → 44.
 */
export function castUint8(v: number): number {
  return castInt32(v) & 255;
}
