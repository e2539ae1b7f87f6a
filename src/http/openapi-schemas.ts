/**
 * JSON Schemas of the success responses (TiTiler's pydantic models: Info, BandStatistics, Point,
 * TileJSON, …), published under `components.schemas` and referenced by the routes.
 */
import type { JsonSchema } from './validation/params.ts';

const num = { type: 'number' };
const numOrNull = { type: ['number', 'null'] };
const bounds = { type: 'array', items: num, minItems: 4, maxItems: 4 };

export const RESPONSE_SCHEMAS: Record<string, JsonSchema> = {
  Info: {
    type: 'object',
    required: ['bounds', 'crs', 'band_metadata', 'band_descriptions', 'dtype', 'nodata_type'],
    properties: {
      bounds,
      crs: { type: 'string', description: 'OGC CRS URI or WKT' },
      band_metadata: {
        type: 'array',
        items: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'object', additionalProperties: { type: 'string' } }] },
      },
      band_descriptions: { type: 'array', items: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'string' }] } },
      dtype: { type: 'string' },
      nodata_type: { enum: ['Alpha', 'Mask', 'Internal', 'Nodata', 'None'] },
      colorinterp: { type: 'array', items: { type: 'string' } },
      scales: { type: 'array', items: num },
      offsets: { type: 'array', items: num },
      colormap: { type: 'object', additionalProperties: { type: 'array', items: { type: 'integer' }, minItems: 4, maxItems: 4 } },
      driver: { type: 'string' },
      count: { type: 'integer' },
      width: { type: 'integer' },
      height: { type: 'integer' },
      overviews: { type: 'array', items: { type: 'integer' } },
      nodata_value: numOrNull,
      minmax: { type: 'array', items: { type: 'array', items: num, minItems: 2, maxItems: 2 } },
    },
  },
  InfoGeoJSON: {
    type: 'object',
    required: ['type', 'geometry', 'properties'],
    properties: {
      type: { const: 'Feature' },
      bbox: bounds,
      geometry: { type: 'object' },
      properties: { $ref: '#/components/schemas/Info' },
    },
  },
  BandStatistics: {
    type: 'object',
    required: [
      'min',
      'max',
      'mean',
      'count',
      'sum',
      'std',
      'median',
      'majority',
      'minority',
      'unique',
      'histogram',
      'valid_percent',
      'masked_pixels',
      'valid_pixels',
    ],
    properties: {
      min: num,
      max: num,
      mean: num,
      count: num,
      sum: num,
      std: num,
      median: num,
      majority: num,
      minority: num,
      unique: num,
      histogram: {
        type: 'array',
        items: { type: 'array', items: num },
        minItems: 2,
        maxItems: 2,
        description: '[counts, bin edges] (or [counts, categories])',
      },
      valid_percent: num,
      masked_pixels: num,
      valid_pixels: num,
      description: { type: 'string' },
    },
    patternProperties: { '^percentile_\\d+$': num },
  },
  Statistics: { type: 'object', description: 'Band name → statistics.', additionalProperties: { $ref: '#/components/schemas/BandStatistics' } },
  Point: {
    type: 'object',
    required: ['coordinates', 'values', 'band_names'],
    properties: {
      coordinates: { type: 'array', items: num, minItems: 2, maxItems: 2 },
      values: { type: 'array', items: numOrNull },
      band_names: { type: 'array', items: { type: 'string' } },
      band_descriptions: { type: 'array', items: { type: 'string' } },
    },
  },
  TileJSON: {
    type: 'object',
    required: ['tilejson', 'tiles'],
    properties: {
      tilejson: { const: '3.0.0' },
      name: { type: 'string' },
      description: { type: 'string' },
      version: { type: 'string' },
      attribution: { type: 'string' },
      scheme: { enum: ['xyz', 'tms'] },
      tiles: { type: 'array', items: { type: 'string', format: 'uri-reference' } },
      minzoom: { type: 'integer' },
      maxzoom: { type: 'integer' },
      bounds,
      center: { type: 'array', items: num },
    },
  },
  Health: {
    type: 'object',
    required: ['status', 'versions'],
    properties: { status: { enum: ['serving', 'draining'] }, versions: { type: 'object', additionalProperties: { type: 'string' } } },
  },
};

/** `{ $ref }` to one of RESPONSE_SCHEMAS. */
export function schemaRef(name: keyof typeof RESPONSE_SCHEMAS & string): JsonSchema {
  return { $ref: `#/components/schemas/${name}` };
}

/** `{ type: object, additionalProperties: $ref }`: a map keyed by asset/band name. */
export function mapOf(name: string): JsonSchema {
  return { type: 'object', additionalProperties: { $ref: `#/components/schemas/${name}` } };
}
