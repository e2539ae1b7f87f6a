/**
 * Step 8 (§5.4): the coerced canvas → bytes in the chosen format, with the mask as alpha (or as
 * the last band for GeoTIFF/NPY) unless `returnMask` is false.
 */
import { Errors, type RastileError } from '../../errors.ts';
import type { ImageData } from '../image-data.ts';
import type { Canvas } from './canvas.ts';
import { encodeGeoTiff } from './encode-geotiff.ts';
import { encodeNpy } from './encode-npy.ts';
import { encodeWithSharp } from './encode-sharp.ts';
import { driverName, type ImageFormat } from './formats.ts';
import { ALPHA16, maskBand } from './mask-band.ts';
import { interleave, interleaveWithAlpha } from './interleave.ts';
import { COOPERATIVE_PNG_PIXELS, encodePng, encodePngCooperative } from './png-encoder.ts';
import { mustYield, yieldToLoop } from '../../util/cooperate.ts';
import { BUFFER_POOL } from '../../util/buffer-pool.ts';
import { encodeJp2 } from './encode-jp2.ts';

/**
 * PNG settings, measured by bench/png-matrix.ts on the request matrix's images against GDAL's PNG
 * driver on the same pixels. 'auto' (png-encoder.ts): 8-bit RGB(A) images of ≤ 256 colours are
 * written indexed and grey+alpha images with a binary alpha as grey with a tRNS key (lossless,
 * png-reduce.ts: a quarter or half of the bytes to deflate); images mostly of empty or repeated
 * rows (sparse tiles and bboxes) get libpng's own settings; dense images the Up filter at zlib
 * level 1. `pngraw` is the raw variant: unfiltered, zlib level 1 (TiTiler's zlevel 1), never reduced.
 */
export const PNG_PROFILE = { png: { level: 1, filter: 'auto' }, pngraw: { level: 1, filter: 'none' } } as const;

function cannotEncode(canvas: Canvas, format: ImageFormat): RastileError {
  return Errors.invalidFormat(
    `Could not encode array of shape (${canvas.bands.length},${canvas.height},${canvas.width}) ` +
      `and of datatype \`${canvas.dtype}\` using ${driverName(format)} driver`,
  );
}

export async function encodeCanvas(canvas: Canvas, format: ImageFormat, returnMask: boolean, img: ImageData): Promise<Buffer> {
  const { width, height, dtype, bands } = canvas;
  switch (format) {
    case 'npy': {
      const all = returnMask ? [...bands, maskBand(canvas.alpha, dtype)] : bands;
      return encodeNpy(all, dtype, height, width);
    }
    case 'tif':
    case 'tiff':
      return encodeGeoTiff({
        width,
        height,
        dtype,
        bands,
        mask: returnMask ? maskBand(canvas.alpha, dtype) : null,
        bounds: img.bounds,
        crs: img.crs,
      });
    case 'png':
    case 'pngraw': {
      const channels = bands.length + (returnMask ? 1 : 0);
      if ((dtype !== 'uint8' && dtype !== 'uint16') || channels < 1 || channels > 4) throw cannotEncode(canvas, format);
      const planes = bands as Array<Uint8Array | Uint16Array>;
      const alpha = returnMask ? canvas.alpha : undefined;
      // 16-bit alpha from the 8-bit mask as it is interleaved (rio-tiler's trunc(a / 255 · 65535))
      const alphaTable = dtype === 'uint16' ? ALPHA16 : undefined;
      const n = width * height;
      const buf = dtype === 'uint16' ? new Uint16Array(n * channels) : BUFFER_POOL.bytes(n * channels);
      const input = { width, height, channels: channels as 1 | 2 | 3 | 4, data: buf as Uint8Array | Uint16Array, ...PNG_PROFILE[format] };
      if (n >= COOPERATIVE_PNG_PIXELS) {
        try {
          await interleaveCooperative(buf, planes, alpha, alphaTable, width, height);
          return await encodePngCooperative(input);
        } finally {
          BUFFER_POOL.release(buf.buffer);
        }
      }
      if (alpha) interleaveWithAlpha(buf, planes, alpha, n, alphaTable);
      else interleave(buf, planes, n);
      const encoding = encodePng(input);
      BUFFER_POOL.release(buf.buffer); // read synchronously by encodePng
      return encoding;
    }
    case 'jpeg':
    case 'jpg':
      if (dtype !== 'uint8' || (bands.length !== 1 && bands.length !== 3)) throw cannotEncode(canvas, format);
      return encodeWithSharp({ width, height, planes: bands as Uint8Array[] }, 'jpeg');
    case 'webp': {
      if (dtype !== 'uint8' || (bands.length !== 1 && bands.length !== 3)) throw cannotEncode(canvas, format);
      const planes = (bands.length === 1 ? [bands[0], bands[0], bands[0]] : bands) as Uint8Array[];
      return encodeWithSharp({ width, height, planes, alpha: returnMask ? canvas.alpha : undefined }, 'webp');
    }
    case 'jp2': {
      if (dtype !== 'uint8' && dtype !== 'uint16' && dtype !== 'int16') throw cannotEncode(canvas, format);
      const planes = (returnMask ? [...bands, maskBand(canvas.alpha, dtype)] : bands) as Array<Uint8Array | Uint16Array | Int16Array>;
      return encodeJp2(planes, width, height, dtype);
    }
  }
}

/** interleave(WithAlpha) a slice of rows at a time, yielding to the event loop in between. */
async function interleaveCooperative(
  out: Uint8Array | Uint16Array,
  planes: ReadonlyArray<Uint8Array | Uint16Array>,
  alpha: Uint8Array | undefined,
  alphaTable: Uint16Array | undefined,
  width: number,
  height: number,
): Promise<void> {
  const c = planes.length + (alpha ? 1 : 0);
  const rows = Math.max(1, Math.ceil(65536 / width));
  for (let y0 = 0; y0 < height; y0 += rows) {
    const a = y0 * width;
    const b = Math.min(height, y0 + rows) * width;
    const slice = out.subarray(a * c, b * c);
    const parts = planes.map((p) => p.subarray(a, b));
    if (alpha) interleaveWithAlpha(slice, parts, alpha.subarray(a, b), b - a, alphaTable);
    else interleave(slice, parts, b - a);
    if (mustYield()) await yieldToLoop();
  }
}
