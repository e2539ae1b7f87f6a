/**
 * OGC API – Maps `GET {prefix}/map` (TiTiler's OGCMapsFactory): the whole dataset or a bbox, in
 * `crs` (default: the dataset's), `width`/`height` (default: longest side 1024), format from `f`
 * or `Accept` (default PNG). Content-Bbox / Content-Crs headers say what was drawn.
 */
import type { FastifyInstance } from 'fastify';
import { WGS84, type Crs } from '../../geo/crs.ts';
import { IMAGE_FORMATS } from '../../raster/render/index.ts';
import { algorithmParams } from '../params/algorithm.ts';
import { crsValueParam } from '../params/crs.ts';
import { datasetParams, readOptions } from '../params/dataset.ts';
import { negotiateImageFormat } from '../params/format.ts';
import { colormapParams, renderParams } from '../params/render.ts';
import { registerRoute, type RouteRegistry } from '../route.ts';
import { fail, Problems } from '../validation/issues.ts';
import { P, parsePyFloat, type ParamDefs } from '../validation/params.ts';
import type { ImageBackend } from './backend.ts';
import { IMAGE_RESPONSE, imageResponse, postProcessFor } from './image-output.ts';

/** Longest side when neither width nor height is given (TiTiler: max_size 1024). */
const DEFAULT_MAX_SIZE = 1024;

/** OGC `bbox`: 4 or 6 comma-separated numbers (6 = with heights: elements 0, 1, 3, 4). */
const bboxParam = P.custom<[number, number, number, number]>(
  (raw) => {
    const parts = raw.split(',').map((v) => parsePyFloat(v.trim()));
    if ((parts.length !== 4 && parts.length !== 6) || parts.some((v) => typeof v !== 'number' || !Number.isFinite(v)))
      return fail(Problems.value('invalid bbox content'));
    const n = parts as number[];
    const b: [number, number, number, number] = n.length === 6 ? [n[0]!, n[1]!, n[3]!, n[4]!] : [n[0]!, n[1]!, n[2]!, n[3]!];
    return b[0] > b[2] || b[1] > b[3] ? fail(Problems.value('invalid bbox content')) : b;
  },
  { type: 'string', description: 'minx,miny,maxx,maxy (or 6 values with heights)' },
);

export function registerMapRoute<D extends ParamDefs>(app: FastifyInstance, registry: RouteRegistry, backend: ImageBackend<D>, maxSide: number): void {
  const { prefix } = backend;
  registerRoute(app, registry, {
    method: 'GET',
    path: `${prefix}/map`,
    operationId: `${prefix.slice(1)}_map`,
    summary: 'OGC API – Maps: a map of the dataset.',
    description: 'Without `bbox`, the whole dataset. The format is `f`, else negotiated from `Accept`, else PNG.',
    tags: [backend.tag],
    vary: ['accept'],
    params: {
      ...backend.params,
      ...datasetParams,
      ...algorithmParams,
      ...colormapParams,
      ...renderParams,
      bbox: bboxParam.describe('Bounding box of the map (minx,miny,maxx,maxy), in `bbox-crs`.'),
      bbox_crs: crsValueParam().as('bbox-crs').describe('CRS of `bbox` (default EPSG:4326); `[EPSG:3857]` CURIEs accepted.'),
      crs: crsValueParam().describe('CRS of the map (default: the dataset CRS).'),
      width: P.int().gt(0).le(maxSide).describe('Map width in pixels (default: from height and the aspect ratio, or longest side 1024).'),
      height: P.int().gt(0).le(maxSide).describe('Map height in pixels.'),
      f: P.enumeration(IMAGE_FORMATS).describe('Output format (default: from `Accept`, else png).'),
    },
    responses: IMAGE_RESPONSE,
    handler: async ({ params, request, signal }) => {
      const p = params as typeof params & {
        bbox?: [number, number, number, number];
        bbox_crs?: Crs;
        crs?: Crs;
        width?: number;
        height?: number;
        f?: (typeof IMAGE_FORMATS)[number];
      };
      const format = p.f ?? negotiateImageFormat(request.headers.accept) ?? 'png';
      const post = postProcessFor(p);
      const reader = await backend.open(p, signal);
      const size = p.width || p.height ? { width: p.width, height: p.height } : { maxSize: DEFAULT_MAX_SIZE };
      const dstCrs = p.crs ?? reader.crs;
      const img = p.bbox
        ? await reader.part({ ...readOptions(p), bounds: p.bbox, boundsCrs: p.bbox_crs ?? WGS84, dstCrs, ...size }, signal)
        : await reader.preview({ ...readOptions(p), ...size, dstCrs: p.crs }, signal);
      return imageResponse(await post(img), format, p);
    },
  });
}
