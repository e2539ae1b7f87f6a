/**
 * sRGB ↔ CIE LCH(ab) for the `saturation` colour operation, with the constants of
 * color-operations (D65 white XN=0.95047, ZN=1.08883, sRGB companding, CIE δ = 6/29).
 * Works in place on three 0..1 float planes; chroma is multiplied by `proportion`.
 */
const DELTA = 6 / 29;
const BINTERCEPT = 4 / 29;
const T0 = DELTA ** 3;
const ALPHA = DELTA ** -2 / 3;
const XN = 0.95047;
const ZN = 1.08883;
const THIRD = 1 / 3;

const toLinear = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
const fromLinear = (c: number) => (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055);
const labF = (t: number) => (t > T0 ? t ** THIRD : ALPHA * t + BINTERCEPT);
const labFInv = (t: number) => (t > DELTA ? t ** 3 : 3 * DELTA * DELTA * (t - BINTERCEPT));
const clamp01 = (v: number) => (v < 0 ? 0 : v > 1 ? 1 : v);

export function saturatePlanes(r: Float64Array, g: Float64Array, b: Float64Array, proportion: number): void {
  for (let i = 0; i < r.length; i++) {
    const rl = toLinear(r[i]);
    const gl = toLinear(g[i]);
    const bl = toLinear(b[i]);
    const fx = labF((rl * 0.4124564 + gl * 0.3575761 + bl * 0.1804375) / XN);
    const fy = labF(rl * 0.2126729 + gl * 0.7151522 + bl * 0.072175);
    const fz = labF((rl * 0.0193339 + gl * 0.119192 + bl * 0.9503041) / ZN);
    const l = 116 * fy - 16;
    const a0 = 500 * (fx - fy);
    const b0 = 200 * (fy - fz);
    const chroma = Math.sqrt(a0 * a0 + b0 * b0) * proportion;
    const hue = Math.atan2(b0, a0);
    const a = chroma * Math.cos(hue);
    const bb = chroma * Math.sin(hue);
    const ty = (l + 16) / 116;
    const x = labFInv(ty + a / 500) * XN;
    const y = labFInv(ty);
    const z = labFInv(ty - bb / 200) * ZN;
    r[i] = clamp01(fromLinear(x * 3.2404542 + y * -1.5371385 + z * -0.4985314));
    g[i] = clamp01(fromLinear(x * -0.969266 + y * 1.8760108 + z * 0.041556));
    b[i] = clamp01(fromLinear(x * 0.0556434 + y * -0.2040259 + z * 1.0572252));
  }
}
