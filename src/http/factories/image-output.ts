/**
 * From an ImageData to an HTTP image response: algorithm, rendering (rescale, color formula,
 * colormap, format choice, encoding) and TiTiler's Content-Bbox / Content-Crs headers.
 */
import { crsUri } from '../../geo/crs.ts';
import { applyAlgorithm, validateAlgorithmParams } from '../../raster/algorithms/index.ts';
import { getColormap, type ColorMap } from '../../raster/colormap/index.ts';
import type { ImageData } from '../../raster/image-data.ts';
import { IMAGE_FORMATS, mediaType, renderImage, type ColorFormula, type ImageFormat } from '../../raster/render/index.ts';
import { pyFloatRepr } from '../../util/python.ts';
import type { HandlerResult, ResponseDoc } from '../route.ts';

/** OpenAPI responses of an image endpoint: one media type per output format. */
export const IMAGE_RESPONSE: Record<number, ResponseDoc> = {
  200: { description: 'Return an image.', content: Object.fromEntries([...new Set(IMAGE_FORMATS.map(mediaType))].map((m) => [m, {}])) },
};

export interface AlgorithmChoice {
  algorithm?: string;
  algorithm_params?: Record<string, unknown>;
}

/** Validates the algorithm parameters up front (400 on bad values) and returns the post-process step. */
export function postProcessFor(p: AlgorithmChoice): (img: ImageData) => Promise<ImageData> {
  if (!p.algorithm) return (img) => Promise.resolve(img);
  const id = p.algorithm;
  const params = validateAlgorithmParams(id, p.algorithm_params ?? {});
  return (img) => applyAlgorithm(id, params, img);
}

export interface RenderChoice {
  rescale?: Array<[number, number]>;
  color_formula?: ColorFormula;
  return_mask: boolean;
  colormap_name?: string;
  colormap?: ColorMap | null;
}

export function colormapOf(p: RenderChoice): ColorMap | undefined {
  if (p.colormap_name) return { kind: 'lut', table: getColormap(p.colormap_name) };
  return p.colormap ?? undefined;
}

function imageHeaders(img: ImageData): Record<string, string> {
  const headers: Record<string, string> = { 'content-bbox': img.bounds.map(pyFloatRepr).join(',') };
  const uri = crsUri(img.crs);
  if (uri) headers['content-crs'] = `<${uri}>`;
  return headers;
}

export async function imageResponse(img: ImageData, format: ImageFormat | undefined, p: RenderChoice): Promise<HandlerResult> {
  const out = await renderImage(img, {
    format,
    rescale: p.rescale,
    colorFormula: p.color_formula,
    colormap: colormapOf(p),
    returnMask: p.return_mask,
  });
  const headers = imageHeaders(img);
  const hint = darkImageHint(img, format, p);
  if (hint !== undefined) headers[HINT_HEADER] = hint;
  return { kind: 'body', body: out.body, contentType: out.contentType, headers };
}

/** Response header explaining a surprising but TiTiler-faithful result. */
export const HINT_HEADER = 'x-rastile-hint';

/**
 * Data wider than 8 bits, rendered with neither `rescale` nor an explicit format: TiTiler writes
 * the values as they are (a 16-bit PNG, or values cast), so a typical 0–3000 range shows almost
 * black. The semantics stay TiTiler's; this says why and what to add.
 */
export function darkImageHint(img: ImageData, format: ImageFormat | undefined, p: RenderChoice): string | undefined {
  if (img.dtype === 'uint8' || format !== undefined || (p.rescale?.length ?? 0) > 0 || p.color_formula !== undefined) return undefined;
  return (
    `${img.dtype} data without rescale is encoded with its raw values, so the image looks dark; ` +
    'add rescale=min,max (e.g. the p2,p98 percentiles from /cog/statistics) or request an explicit format'
  );
}
