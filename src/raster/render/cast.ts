/**
 * numpy's float → uint8 `astype` as it behaves on x86-64: truncate toward zero through a 32-bit
 * signed integer and keep the low byte. Out-of-range values and NaN become 0 (cvttsd2si gives
 * 0x80000000), negative in-range values wrap (-1.5 → 255), 300.7 → 44.
 */
export function castUint8(v: number): number {
  const t = Math.trunc(v);
  return t >= -2147483648 && t <= 2147483647 ? t & 255 : 0;
}
