/** The `terrain` colormap as a 256×4 RGBA lookup table, read once from the shared colormap module. */
import { getColormap } from '../colormap/index.ts';

let lut: Uint8Array | null = null;

export function terrainLut(): Uint8Array {
  lut ??= getColormap('terrain');
  return lut;
}
