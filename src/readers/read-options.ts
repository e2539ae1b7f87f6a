import type { ReadResampling, WarpResampling } from '../raster/resampling.ts';

/** Options of every pixel read (TiTiler's layer + dataset parameters, minus expressions). */
export interface ReadOptions {
  /** 1-based band indexes; default: every non-alpha band. */
  indexes?: number[];
  /** Overrides the dataset nodata value. */
  nodata?: number;
  unscale?: boolean;
  resampling?: ReadResampling;
  reproject?: WarpResampling;
}
