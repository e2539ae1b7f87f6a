/** /colorMaps and /colorMaps/{colorMapId} (JSON, HTML or an image legend). */
import type { FastifyInstance } from 'fastify';
import { Errors } from '../../errors.ts';
import { colormapToJson, COLORMAP_NAMES, getColormap, legendImage } from '../../raster/colormap/index.ts';
import { legendTicks } from '../../raster/colormap/legend-ticks.ts';
import { IMAGE_FORMATS, renderImage } from '../../raster/render/index.ts';
import { escapeHtml, linkListPage, page } from '../pages/html.ts';
import { labelledLegend } from '../pages/legend.ts';
import { fParam, wantsHtml } from '../params/format.ts';
import { renderParams } from '../params/render.ts';
import { registerRoute, type RouteRegistry } from '../route.ts';
import { P } from '../validation/params.ts';

/** Length of the HTML page's vertical legend (legendImage's default ramp length). */
const LEGEND_LENGTH = 256;

export function registerColormapRoutes(app: FastifyInstance, registry: RouteRegistry, maxSide: number): void {
  const tags = ['ColorMaps'];
  registerRoute(app, registry, {
    method: 'GET',
    path: '/colorMaps',
    vary: ['accept'],
    operationId: 'colormaps',
    summary: 'Retrieve the list of available colormaps.',
    tags,
    params: { ...fParam },
    responses: { 200: { description: 'Colormap list.', content: { 'application/json': {}, 'text/html': {} } } },
    handler: async ({ params, request, baseUrl }) => {
      const data = {
        colormaps: COLORMAP_NAMES.map((id) => ({
          id,
          links: [{ href: `${baseUrl}/colorMaps/${id}`, rel: 'item', type: 'application/json', title: `Definition of ${id} ColorMap` }],
        })),
      };
      if (wantsHtml(params.f, request.headers.accept)) {
        const items = data.colormaps.map((c) => ({ href: `${c.links[0].href}?f=html`, label: c.id }));
        return { kind: 'body', contentType: 'text/html; charset=utf-8', body: linkListPage('ColorMaps', items) };
      }
      return { kind: 'json', data };
    },
  });

  registerRoute(app, registry, {
    method: 'GET',
    path: '/colorMaps/{colorMapId}',
    vary: ['accept'],
    operationId: 'colormap',
    summary: 'Retrieve a colormap as JSON, or as a legend image.',
    tags,
    params: {
      colorMapId: P.literal(COLORMAP_NAMES).path().describe('ColorMap name'),
      f: P.literal(['html', 'json', ...IMAGE_FORMATS] as const).describe('Response MediaType.'),
      orientation: P.literal(['vertical', 'horizontal'] as const)
        .default('horizontal')
        .describe('Image Orientation.'),
      height: P.int().gt(0).le(maxSide).describe('Image Height (default to 20px for horizontal or 256px for vertical).'),
      width: P.int().gt(0).le(maxSide).describe('Image Width (default to 256px for horizontal or 20px for vertical).'),
      rescale: renderParams.rescale.describe(
        'rastile: min,max of the data the colormap is drawn for (as in a tile request): the HTML legend (f=html) is labelled with min, max and round values between. Not for image legends.',
      ),
    },
    responses: { 200: { description: 'Colormap.', content: { 'application/json': {}, 'text/html': {}, 'image/png': {} } } },
    handler: async ({ params: p, request }) => {
      const cmap = getColormap(p.colorMapId);
      const f = p.f ?? (wantsHtml(undefined, request.headers.accept) ? 'html' : 'json');
      if (f === 'json') return { kind: 'json', data: colormapToJson(cmap) };
      const rescale = p.rescale?.[0];
      if (f === 'html') {
        const legend = await renderImage(legendImage(cmap, { orientation: 'vertical' }), { format: 'png', returnMask: true });
        const src = `data:image/png;base64,${legend.body.toString('base64')}`;
        const img = rescale
          ? labelledLegend(src, p.colorMapId, legendTicks(rescale[0], rescale[1]), 'vertical', LEGEND_LENGTH)
          : `<img alt="${escapeHtml(p.colorMapId)}" src="${src}">`;
        return { kind: 'body', contentType: 'text/html; charset=utf-8', body: page(p.colorMapId, `<h1>${escapeHtml(p.colorMapId)}</h1>${img}`) };
      }
      if (rescale) throw Errors.badRequest('rescale labels the HTML legend (f=html); image legends are unlabelled ramps, as in TiTiler');
      const out = await renderImage(legendImage(cmap, { orientation: p.orientation, width: p.width, height: p.height }), { format: f, returnMask: true });
      return { kind: 'body', body: out.body, contentType: out.contentType };
    },
  });
}
