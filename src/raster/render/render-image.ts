/**
 * The image rendering pipeline (TiTiler §6.1 steps 4–8): rescale, color formula, colormap,
 * format choice, dtype coercion, encoding. Input is the reader's ImageData; output the encoded
 * body and its media type.
 *
 * Deviations from TiTiler: masks stay correct for every dtype (valid = 255, masked = 0 in PNG
 * and WebP alpha; TiTiler's float masks become fully transparent); a colormap on multi-band
 * data, a color formula on float data and JP2 output are 400-class errors instead of 500s.
 */
import { Errors } from '../../errors.ts';
import { applyColormap } from '../colormap/apply.ts';
import { colormapFromEntries } from '../colormap/from-entries.ts';
import type { ColorMap } from '../colormap/types.ts';
import type { ImageData } from '../image-data.ts';
import { hasTransparentPixel, toCanvas, type Canvas } from './canvas.ts';
import { applyColorFormula } from './color-formula-apply.ts';
import type { ColorFormula } from './color-formula-parse.ts';
import { coerceDtype } from './dtype-coerce.ts';
import { encodeCanvas, PNG_PROFILE } from './encode-canvas.ts';
import { encodeInterleavedWithSharp } from './encode-sharp.ts';
import { mediaType, type ImageFormat } from './formats.ts';
import { rescaleCanvas } from './rescale.ts';
import { colormapToRgba } from './fast-colormap-png.ts';
import { encodePng } from './png-encoder.ts';
import { BUFFER_POOL } from '../../util/buffer-pool.ts';
import { chargeRequest } from '../../util/request-budget.ts';

export interface RenderOptions {
  /** undefined = automatic choice (§5.2): PNG if any pixel is transparent, else JPEG. */
  format?: ImageFormat;
  /** One [min, max] per band, or the first one for all bands when the counts differ. */
  rescale?: Array<[number, number]>;
  colorFormula?: ColorFormula;
  /** User colormap; when absent, the image's own palette applies to 1-band data. */
  colormap?: ColorMap;
  /** Write the mask as alpha / extra band (TiTiler `return_mask`, default true). */
  returnMask: boolean;
}

export interface Rendered {
  body: Buffer;
  contentType: string;
  format: ImageFormat;
}

export async function renderImage(img: ImageData, options: RenderOptions): Promise<Rendered> {
  chargeRequest(img.width * img.height * (img.bands.length + 13), `Rendering a ${img.width}×${img.height} image of ${img.bands.length} band(s)`); // rescaled planes, RGBA, PNG scanlines and deflate output
  const fast = await tryFastColormapPng(img, options);
  if (fast) return fast;
  const canvas = postProcess(img, options);
  const format = options.format ?? (hasTransparentPixel(canvas.alpha) ? 'png' : 'jpeg');
  const coerced = coerceDtype(canvas, format, options.format === undefined, img.datasetStatistics);
  const body = await encodeCanvas(coerced, format, options.returnMask, img);
  return { body, contentType: mediaType(format), format };
}

/**
 * One band → (rescale) → 256-entry colormap → RGBA in one fused pass (see fast-colormap-png.ts),
 * encoded as PNG, or as JPEG from the same RGB when the automatic format finds no transparent
 * pixel (byte-identical to the generic path's JPEG: the same RGB planes, interleaved).
 */
async function tryFastColormapPng(img: ImageData, options: RenderOptions): Promise<Rendered | null> {
  if (img.bands.length !== 1 || options.colorFormula || !options.returnMask) return null;
  if (options.format !== undefined && options.format !== 'png') return null;
  const cmap = options.colormap ?? (img.colormap ? colormapFromEntries(img.colormap) : undefined);
  if (!cmap || cmap.kind !== 'lut') return null;
  const rescale = options.rescale && options.rescale.length > 0 ? options.rescale[0] : undefined;
  if (!rescale && img.dtype !== 'uint8') return null; // generic path handles the other LUT casts
  const rgba = BUFFER_POOL.bytes(img.width * img.height * 4);
  const transparent = colormapToRgba(img, cmap.table, rescale, rgba);
  if (options.format === undefined && !transparent) {
    // auto → JPEG: drop the alpha (all non-zero, and JPEG has none) and encode the RGB
    const n = img.width * img.height;
    const rgb = new Uint8Array(3 * n); // read asynchronously by sharp: not a scratch buffer
    for (let i = 0, s = 0, o = 0; i < n; i++, s += 4, o += 3) {
      rgb[o] = rgba[s];
      rgb[o + 1] = rgba[s + 1];
      rgb[o + 2] = rgba[s + 2];
    }
    BUFFER_POOL.release(rgba.buffer);
    return { body: await encodeInterleavedWithSharp(rgb, img.width, img.height, 3, 'jpeg'), contentType: mediaType('jpeg'), format: 'jpeg' };
  }
  const encoding = encodePng({ width: img.width, height: img.height, channels: 4, data: rgba, ...PNG_PROFILE.png });
  BUFFER_POOL.release(rgba.buffer); // read synchronously by encodePng
  return { body: encoding, contentType: mediaType('png'), format: 'png' };
}

/** Steps 4–6: rescale, color formula, colormap. */
export function postProcess(img: ImageData, options: Omit<RenderOptions, 'format' | 'returnMask'>): Canvas {
  let canvas = toCanvas(img);
  if (options.rescale && options.rescale.length > 0) canvas = rescaleCanvas(canvas, options.rescale);
  if (options.colorFormula) {
    canvas = { ...canvas, dtype: 'uint8', bands: applyColorFormula(canvas.bands, canvas.dtype, options.colorFormula) };
  }
  const cmap = options.colormap ?? (img.colormap && canvas.bands.length === 1 ? colormapFromEntries(img.colormap) : undefined);
  if (cmap) canvas = colorize(canvas, cmap);
  return canvas;
}

function colorize(canvas: Canvas, cmap: ColorMap): Canvas {
  if (canvas.bands.length !== 1) throw Errors.badRequest('Source data must be 1 band');
  const n = canvas.width * canvas.height;
  const { rgba } = applyColormap(canvas.bands[0], canvas.alpha, cmap);
  const alpha = rgba.subarray(3 * n);
  return {
    ...canvas,
    dtype: 'uint8',
    bands: [rgba.subarray(0, n), rgba.subarray(n, 2 * n), rgba.subarray(2 * n, 3 * n)],
    masks: [alpha, alpha, alpha],
    alpha,
  };
}
