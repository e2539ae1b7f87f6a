/** Resampling method names accepted by the API (TiTiler's RIOResampling and WarpResampling enums). */
export const READ_RESAMPLING = ['nearest', 'bilinear', 'cubic', 'cubic_spline', 'lanczos', 'average', 'mode', 'gauss', 'rms'] as const;
export const WARP_RESAMPLING = [
  'nearest',
  'bilinear',
  'cubic',
  'cubic_spline',
  'lanczos',
  'average',
  'mode',
  'max',
  'min',
  'med',
  'q1',
  'q3',
  'sum',
  'rms',
] as const;
export type ReadResampling = (typeof READ_RESAMPLING)[number];
export type WarpResampling = (typeof WARP_RESAMPLING)[number];
