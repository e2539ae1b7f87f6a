/**
 * Colour interpretation, alpha band and palette of a TIFF, derived from Photometric,
 * ExtraSamples and ColorMap the way GDAL's GTiff driver does (GTiffRasterBand constructor,
 * GTiffBitmapBand, TIFFColorMapTagToColorTable).
 */
import type { Rgba } from '../../color.ts';

export const Photometric = {
  MinIsWhite: 0,
  MinIsBlack: 1,
  Rgb: 2,
  Palette: 3,
  Mask: 4,
  Separated: 5,
  YCbCr: 6,
} as const;

export interface ColorInfo {
  photometric: number;
  compression: number;
  samplesPerPixel: number;
  bitsPerSample: number;
  extraSamples: number[];
  /** Band 1 is a palette index (Palette photometric with a ColorMap, or a 1-bit bitmap). */
  hasPalette: boolean;
}

/** GDAL-style lower-case colour interpretation of every band (1-based band = index + 1). */
export function colorInterpretations(info: ColorInfo): string[] {
  const out: string[] = [];
  const { photometric: ph, samplesPerPixel: spp } = info;
  // JPEG-compressed YCbCr is converted to RGB on decode (CONVERT_YCBCR_TO_RGB=YES).
  const rgb = ph === Photometric.Rgb || (ph === Photometric.YCbCr && info.compression === 7);
  for (let band = 1; band <= spp; band++) {
    let ci: string | null = null;
    if (info.hasPalette && band === 1) ci = 'palette';
    else if (rgb) ci = band <= 3 ? (['red', 'green', 'blue'] as const)[band - 1] : null;
    else if (ph === Photometric.YCbCr) ci = band <= 3 ? (['ycbcr_y', 'ycbcr_cb', 'ycbcr_cr'] as const)[band - 1] : null;
    else if (ph === Photometric.Separated) ci = band <= 4 ? (['cyan', 'magenta', 'yellow', 'black'] as const)[band - 1] : null;
    else if (ph === Photometric.MinIsBlack && band === 1) ci = 'gray';
    out.push(ci ?? extraSampleInterp(info, band));
  }
  return out;
}

function extraSampleInterp(info: ColorInfo, band: number): string {
  const extra = info.extraSamples;
  if (extra.length === 0) return 'undefined';
  const base = info.samplesPerPixel - extra.length;
  const k = band - base - 1;
  if (band > base && k < extra.length && (extra[k] === 1 || extra[k] === 2)) return 'alpha';
  return 'undefined';
}

/**
 * TIFF ColorMap (3 × 2^bits uint16: all reds, all greens, all blues) → RGBA 0..255 entries.
 * Values all within 0..255 are taken as already 8-bit (GDAL bug 1384 fix-up); otherwise they are
 * divided by 257 (GDAL 3.6). The entry at the nodata index gets alpha 0, as in GDAL.
 */
export function paletteFromColorMap(map: number[], nodata: number | null): Rgba[] | null {
  const count = Math.floor(map.length / 3);
  if (count === 0) return null;
  let max = 0;
  for (const v of map) if (v > max) max = v;
  const divisor = max > 0 && max < 256 ? 1 : 257;
  const nodataIndex = nodata !== null && Number.isFinite(nodata) ? Math.trunc(nodata) : -1;
  const out: Rgba[] = [];
  for (let i = 0; i < count; i++) {
    out.push([Math.floor(map[i] / divisor), Math.floor(map[count + i] / divisor), Math.floor(map[2 * count + i] / divisor), i === nodataIndex ? 0 : 255]);
  }
  return out;
}

/** GDAL's default colour table of 1-bit single-band images (GTiffBitmapBand). */
export function bitmapPalette(photometric: number): Rgba[] {
  const black: Rgba = [0, 0, 0, 255];
  const white: Rgba = [255, 255, 255, 255];
  return photometric === Photometric.MinIsWhite ? [white, black] : [black, white];
}

/** GDAL's table for MinIsWhite images: entry i is grey 2^bits - 1 - i. */
export function invertedGreyPalette(bits: number): Rgba[] {
  const count = 1 << bits;
  return Array.from({ length: count }, (_, i): Rgba => [count - 1 - i, count - 1 - i, count - 1 - i, 255]);
}
