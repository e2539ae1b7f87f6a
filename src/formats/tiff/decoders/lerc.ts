/**
 * LERC (TIFF compression 34887) through the `lerc` package (WebAssembly). GDAL may wrap the
 * LERC blob in deflate or zstd (LercParameters[1] = 1 / 2); that outer layer is removed first.
 * Returns one plane per sample of the block, with libtiff's conventions for LERC masks:
 * masked float samples become NaN, and a uint8 block whose last sample is an alpha band stored
 * as the LERC mask gets that alpha back (255 valid / 0 masked).
 */
import * as Lerc from 'lerc';
import { Errors } from '../../../errors.ts';
import type { DType, TypedArray } from '../../../dtype.ts';
import { allocate, dtypeCtor, isFloat } from '../../../dtype.ts';
import { inflateUnsized } from './inflate.ts';
import { zstdDecode } from './zstd.ts';

let ready: Promise<void> | null = null;
const loadLerc = (): Promise<void> => (ready ??= Lerc.load());

export interface LercBlock {
  width: number;
  height: number;
  samples: number;
  dtype: DType;
  /** LercParameters[1]: 0 none, 1 deflate, 2 zstd. */
  outer: number;
  maxBytes: number;
}

export async function lercDecode(input: Uint8Array, block: LercBlock): Promise<TypedArray[]> {
  let blob = input;
  const rawBytes = block.width * block.height * block.samples * 8;
  if (block.outer === 1) blob = await inflateUnsized(input, block.maxBytes);
  else if (block.outer === 2) blob = await zstdDecode(input, Math.min(block.maxBytes, rawBytes * 2 + 65536), null);
  else if (block.outer !== 0) throw Errors.unsupported(`Unsupported LERC additional compression ${block.outer}`);
  await loadLerc();
  let result: Lerc.LercData;
  try {
    result = Lerc.decode(blob);
  } catch (err) {
    throw Errors.invalidFormat('Corrupt LERC data in TIFF block', err);
  }
  const n = block.width * block.height;
  if (result.width !== block.width || result.height !== block.height) {
    throw Errors.invalidFormat(`LERC blob is ${result.width}×${result.height}, the TIFF block is ${block.width}×${block.height}`);
  }
  // Split into planes: either one band with `depthCount` values per pixel (stored depth-major
  // by default) or several bands of depth 1.
  const planes: TypedArray[] = [];
  const planeMasks: Array<Uint8Array | null> = [];
  for (let b = 0; b < result.pixels.length; b++) {
    const pix = result.pixels[b];
    const depth = result.depthCount || 1;
    const bandMask = result.bandMasks?.[b] ?? result.mask ?? null;
    for (let d = 0; d < depth; d++) {
      planes.push(convert(pix.subarray(d * n, (d + 1) * n) as TypedArray, block.dtype));
      planeMasks.push(bandMask);
    }
  }
  if (planes.length === block.samples - 1 && block.dtype === 'uint8' && result.mask) {
    // libtiff stores an all-0/255 alpha band of uint8 data as the LERC mask.
    const alpha = new Uint8Array(n);
    const m = result.mask;
    for (let i = 0; i < n; i++) alpha[i] = m[i] ? 255 : 0;
    planes.push(alpha);
    planeMasks.push(null);
  }
  if (planes.length !== block.samples) {
    throw Errors.invalidFormat(`LERC blob holds ${planes.length} samples per pixel, the TIFF block ${block.samples}`);
  }
  if (isFloat(block.dtype)) {
    for (let p = 0; p < planes.length; p++) {
      const m = planeMasks[p];
      if (!m) continue;
      const arr = planes[p];
      for (let i = 0; i < n; i++) if (m[i] === 0) arr[i] = NaN;
    }
  }
  return planes;
}

/**
 * The plane in the TIFF's dtype: LERC's own array when it already has that type (the decoder
 * allocates it for this call, so we may keep and modify it), else a converted copy (LERC may
 * pick a narrower type than the file).
 */
function convert(src: TypedArray, dtype: DType): TypedArray {
  if (src.constructor === dtypeCtor(dtype)) return src;
  const out = allocate(dtype, src.length);
  out.set(src);
  return out;
}
