/** The pixel-selection contract and method names (its own file: the methods implement it, pixel-selection.ts picks one). */
import type { ImageData } from '../raster/image-data.ts';

export const PIXEL_SELECTION_METHODS = ['first', 'highest', 'lowest', 'mean', 'median', 'stdev', 'lastbandlow', 'lastbandhigh', 'count'] as const;
export type PixelSelectionName = (typeof PIXEL_SELECTION_METHODS)[number];

export interface PixelSelection {
  readonly name: PixelSelectionName;
  /** Adds one item's image (same width and height as the first one fed). */
  feed(img: ImageData): void;
  /**
   * True when more items cannot change the result: only `first`, once every pixel is valid in
   * every band (only the pixels where `cutline` is non-zero, when given).
   */
  isDone(cutline?: Uint8Array): boolean;
  /** The mosaic, or null when nothing was fed. */
  result(): ImageData | null;
}
