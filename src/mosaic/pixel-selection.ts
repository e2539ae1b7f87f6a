/**
 * Pixel-selection methods of a mosaic (rio-tiler's mosaic methods, titiler spec §12.6): the
 * images of the mosaic's items are fed one by one, in item order, all of the same size.
 *
 * - `first`: per band and pixel the first valid value; done once no pixel is masked (inside the
 *   cutline, when one is given).
 * - `highest` / `lowest`: replace where the new value is valid and higher / lower, or where the
 *   mosaic is still masked.
 * - `lastbandhigh` / `lastbandlow`: the same decision taken on the last band's values for every
 *   band; the last band is dropped from the output.
 * - `mean` / `median`: masked statistics over the stack (masked samples ignored, a pixel is
 *   masked only when every item masks it), cast back to the first item's dtype (numpy
 *   `astype`: truncation towards zero for integers).
 * - `stdev`: masked population standard deviation over the stack (float64; float32 for float32
 *   input, as numpy).
 * - `count`: number of items with a valid sample per pixel (first band), one band, never masked;
 *   uint8 below 256 items.
 */
import type { PixelSelection, PixelSelectionName } from './pixel-selection-type.ts';
import { createReplaceMethod } from './replace-methods.ts';
import { createStackMethod } from './stack-methods.ts';

export { PIXEL_SELECTION_METHODS, type PixelSelection, type PixelSelectionName } from './pixel-selection-type.ts';

export function createPixelSelection(name: PixelSelectionName): PixelSelection {
  switch (name) {
    case 'first':
    case 'highest':
    case 'lowest':
    case 'lastbandhigh':
    case 'lastbandlow':
      return createReplaceMethod(name);
    case 'mean':
    case 'median':
    case 'stdev':
    case 'count':
      return createStackMethod(name);
  }
}
