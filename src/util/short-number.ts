/** A number without float noise: ten significant digits (`845.0000000001` → `845`, `21.90625` kept). */
export const shortNumber = (v: number): string => String(Number(v.toPrecision(10)));
