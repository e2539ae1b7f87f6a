/** Builds the OpenAPI 3.1 document from the registered route declarations. */
import { GEOJSON_LIMITS } from './geojson-body.ts';
import { MAX_OUTPUT_PIXELS } from './params/image-size.ts';
import { MAX_HISTOGRAM_BINS } from './params/statistics.ts';
import { MAX_JSON_DEPTH, MAX_PARAM_LENGTH } from './request-limits.ts';
import { openApiParameters } from './validation/params.ts';
import type { RouteRegistry } from './route.ts';
import { RESPONSE_SCHEMAS } from './openapi-schemas.ts';

const VALIDATION_ERROR = {
  description: 'Validation Error',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/HTTPValidationError' } } },
};

const ERROR = { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/HTTPError' } } } };

const DESCRIPTION = `Dynamic raster tiles, previews, point values and statistics from Cloud-Optimized GeoTIFFs,
STAC items and NASA granules — TiTiler 2.x compatible.

Error statuses differ from TiTiler where TiTiler answers 500 for client mistakes: a missing dataset is 404,
a dataset outside the allowed local roots or on a private network is 403, an s3:// object refused to a server
without S3 credentials is 401 (as TiTiler answers for a MosaicJSON), an unreadable or corrupt raster
is 400, a band index beyond the band count is 400, a point outside the dataset is 404, upstream (remote
server) failures are 502 and upstream time-outs 504. Validation failures are 422 with FastAPI-style bodies.

Limits (every refusal is a 4xx whose \`detail\` names the limit): parameter domains are stated in each
parameter's schema (\`minimum\`, \`maximum\`, \`maxItems\`, \`maxLength\`; numbers must be finite, pairs
ordered); histogram_bins ≤ ${MAX_HISTOGRAM_BINS}; output width × height ≤ ${MAX_OUTPUT_PIXELS} pixels; GeoJSON bodies hold at
most ${GEOJSON_LIMITS.maxFeatures} features and ${GEOJSON_LIMITS.maxVertices} positions (RASTILE_MAX_FEATURES, RASTILE_MAX_VERTICES) and nest at most
${MAX_JSON_DEPTH} levels (422); a body over RASTILE_MAX_BODY_MB is 413; a path parameter over ${MAX_PARAM_LENGTH} characters is
414; a request line plus headers over node's header limit (16 KiB by default) is 431.`;

export function buildOpenApi(registry: RouteRegistry, version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of registry.routes) {
    const op: Record<string, unknown> = {
      tags: r.tags,
      summary: r.summary,
      operationId: `${r.operationId}_${r.method.toLowerCase()}`,
      parameters: openApiParameters(r.params),
      responses: {
        ...Object.fromEntries(
          Object.entries(r.responses).map(([status, doc]) => [
            status,
            {
              description: doc.description,
              ...(doc.content ? { content: Object.fromEntries(Object.entries(doc.content).map(([mt, schema]) => [mt, { schema }])) } : {}),
            },
          ]),
        ),
        '4XX': ERROR,
        '422': VALIDATION_ERROR,
      },
    };
    if (r.description) op['description'] = r.description;
    if (r.body) {
      op['requestBody'] = {
        required: r.body.required,
        description: r.body.description,
        content: { [r.body.mediaType ?? 'application/json']: { schema: r.body.schema } },
      };
    }
    (paths[r.path] ??= {})[r.method.toLowerCase()] = op;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'rastile', description: DESCRIPTION, version, 'x-titiler-api': '2.x' },
    paths,
    components: {
      schemas: {
        ...RESPONSE_SCHEMAS,
        HTTPError: { type: 'object', properties: { detail: { type: 'string' } }, required: ['detail'] },
        ValidationError: {
          type: 'object',
          required: ['loc', 'msg', 'type'],
          properties: {
            loc: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'integer' }] } },
            msg: { type: 'string' },
            type: { type: 'string' },
            input: {},
            ctx: { type: 'object' },
          },
        },
        HTTPValidationError: { type: 'object', properties: { detail: { type: 'array', items: { $ref: '#/components/schemas/ValidationError' } } } },
        Feature: {
          type: 'object',
          required: ['type', 'geometry', 'properties'],
          properties: {
            type: { const: 'Feature' },
            geometry: { type: 'object' },
            properties: { type: ['object', 'null'] },
            id: { type: ['string', 'integer'] },
            bbox: { type: 'array', items: { type: 'number' } },
          },
        },
        FeatureCollection: {
          type: 'object',
          required: ['type', 'features'],
          properties: { type: { const: 'FeatureCollection' }, features: { type: 'array', items: { $ref: '#/components/schemas/Feature' } } },
        },
      },
    },
  };
}
