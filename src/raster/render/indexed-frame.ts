/** A GIF frame as palette indices (encode-gif.ts, gif-colormap-frame.ts, frame-label.ts). */
import type { Palette } from 'gifenc';

export interface IndexedFrame {
  width: number;
  height: number;
  /** One palette index per pixel. */
  index: Uint8Array;
  palette: Palette;
  /** Index of the transparent entry, or -1 when the frame has no transparent pixel. */
  transparentIndex: number;
}
