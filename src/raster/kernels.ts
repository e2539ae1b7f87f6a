/**
 * Interpolation kernels shared by read resampling (resample-kernel.ts) and warping
 * (warp/warp-sample.ts), with GDAL's definitions: bilinear (triangle), cubic (Keys, a = -0.5),
 * cubic B-spline, Lanczos-3 and a Gaussian for `gauss`.
 */
export type InterpolationKernel = 'bilinear' | 'cubic' | 'cubic_spline' | 'lanczos' | 'gauss';

export function isInterpolationKernel(name: string): name is InterpolationKernel {
  return name === 'bilinear' || name === 'cubic' || name === 'cubic_spline' || name === 'lanczos' || name === 'gauss';
}

/** Support radius in source pixels (before stretching for downsampling). */
export function kernelRadius(name: InterpolationKernel): number {
  switch (name) {
    case 'bilinear':
      return 1;
    case 'cubic':
    case 'cubic_spline':
      return 2;
    case 'lanczos':
      return 3;
    case 'gauss':
      return 1.5;
  }
}

export function kernelWeight(name: InterpolationKernel, d: number): number {
  const x = Math.abs(d);
  switch (name) {
    case 'bilinear':
      return x < 1 ? 1 - x : 0;
    case 'cubic': {
      const a = -0.5;
      if (x <= 1) return (a + 2) * x * x * x - (a + 3) * x * x + 1;
      if (x < 2) return a * x * x * x - 5 * a * x * x + 8 * a * x - 4 * a;
      return 0;
    }
    case 'cubic_spline':
      if (x < 1) return 2 / 3 - x * x + (x * x * x) / 2;
      if (x < 2) return ((2 - x) * (2 - x) * (2 - x)) / 6;
      return 0;
    case 'lanczos': {
      if (x === 0) return 1;
      if (x >= 3) return 0;
      const px = Math.PI * x;
      return (3 * Math.sin(px) * Math.sin(px / 3)) / (px * px);
    }
    case 'gauss':
      return Math.exp(-2 * x * x);
  }
}
