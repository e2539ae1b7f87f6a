/**
 * Validation of GeoJSON request bodies (TiTiler uses geojson-pydantic): a Feature needs `type`,
 * `geometry` and a `properties` member (null allowed); a FeatureCollection needs `features`.
 * Failures are FastAPI-style 422 issues located in the body.
 */
import { GEOMETRY_TYPES, type Geometry } from '../geo/geometry.ts';
import { RequestValidationError, type ValidationIssue } from './validation/issues.ts';

export interface Feature {
  type: 'Feature';
  geometry: Geometry;
  properties: Record<string, unknown> | null;
  id?: string | number;
  bbox?: number[];
  [key: string]: unknown;
}

export interface FeatureCollection {
  type: 'FeatureCollection';
  features: Feature[];
  [key: string]: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function checkPosition(p: unknown, loc: Array<string | number>, issues: ValidationIssue[]): void {
  if (!Array.isArray(p) || p.length < 2 || p.length > 3 || !p.every((n) => typeof n === 'number' && Number.isFinite(n))) {
    issues.push({ type: 'value_error', loc, msg: 'Value error, a position must be an array of 2 or 3 finite numbers', input: p, ctx: { error: {} } });
  }
}

function checkNested(v: unknown, depth: number, loc: Array<string | number>, issues: ValidationIssue[]): void {
  if (depth === 0) return checkPosition(v, loc, issues);
  if (!Array.isArray(v)) {
    issues.push({ type: 'list_type', loc, msg: 'Input should be a valid list', input: v });
    return;
  }
  v.forEach((c, i) => checkNested(c, depth - 1, [...loc, i], issues));
}

function validateGeometry(g: unknown, loc: Array<string | number>, issues: ValidationIssue[]): void {
  if (!isObject(g)) {
    issues.push({ type: 'model_type', loc, msg: 'Input should be a valid dictionary or object', input: g });
    return;
  }
  const type = g['type'];
  if (typeof type !== 'string' || !(GEOMETRY_TYPES as readonly string[]).includes(type)) {
    issues.push({
      type: 'union_tag_invalid',
      loc: [...loc, 'type'],
      msg: `Input tag '${String(type)}' found using 'type' does not match any of the expected tags: ${GEOMETRY_TYPES.map((t) => `'${t}'`).join(', ')}`,
      input: g,
    });
    return;
  }
  if (type === 'GeometryCollection') {
    const geoms = g['geometries'];
    if (!Array.isArray(geoms)) issues.push({ type: 'missing', loc: [...loc, 'geometries'], msg: 'Field required', input: g });
    else geoms.forEach((c, i) => validateGeometry(c, [...loc, 'geometries', i], issues));
    return;
  }
  const depth = { Point: 0, MultiPoint: 1, LineString: 1, MultiLineString: 2, Polygon: 2, MultiPolygon: 3 }[type] ?? 0;
  if (!('coordinates' in g)) {
    issues.push({ type: 'missing', loc: [...loc, 'coordinates'], msg: 'Field required', input: g });
    return;
  }
  checkNested(g['coordinates'], depth, [...loc, 'coordinates'], issues);
  if (type === 'Polygon' || type === 'MultiPolygon') {
    const polys = (type === 'Polygon' ? [g['coordinates']] : (g['coordinates'] as unknown[])) as unknown[];
    for (const poly of polys) {
      if (!Array.isArray(poly)) continue;
      for (const ring of poly) {
        if (Array.isArray(ring) && ring.length < 4) {
          issues.push({ type: 'value_error', loc: [...loc, 'coordinates'], msg: 'Value error, All linear rings must have four or more coordinates', input: ring, ctx: { error: {} } });
        }
      }
    }
  }
}

function validateFeature(f: unknown, loc: Array<string | number>, issues: ValidationIssue[]): void {
  if (!isObject(f)) {
    issues.push({ type: 'model_type', loc, msg: 'Input should be a valid dictionary or object', input: f });
    return;
  }
  if (f['type'] !== 'Feature') issues.push({ type: 'literal_error', loc: [...loc, 'type'], msg: "Input should be 'Feature'", input: f['type'] });
  if (!('geometry' in f)) issues.push({ type: 'missing', loc: [...loc, 'geometry'], msg: 'Field required', input: f });
  else if (f['geometry'] === null) issues.push({ type: 'value_error', loc: [...loc, 'geometry'], msg: 'Value error, geometry must not be null', input: null, ctx: { error: {} } });
  else validateGeometry(f['geometry'], [...loc, 'geometry'], issues);
  if (!('properties' in f)) issues.push({ type: 'missing', loc: [...loc, 'properties'], msg: 'Field required', input: f });
  else if (f['properties'] !== null && !isObject(f['properties'])) {
    issues.push({ type: 'dict_type', loc: [...loc, 'properties'], msg: 'Input should be a valid dictionary', input: f['properties'] });
  }
}

/** A Feature or a FeatureCollection (POST /statistics). */
export function parseFeatureOrCollection(body: unknown): Feature | FeatureCollection {
  const issues: ValidationIssue[] = [];
  if (!isObject(body)) {
    throw new RequestValidationError([{ type: 'model_attributes_type', loc: ['body'], msg: 'Input should be a valid dictionary or object to extract fields from', input: body ?? null }]);
  }
  if (body['type'] === 'FeatureCollection') {
    const features = body['features'];
    if (!Array.isArray(features)) issues.push({ type: 'missing', loc: ['body', 'FeatureCollection', 'features'], msg: 'Field required', input: body });
    else features.forEach((f, i) => validateFeature(f, ['body', 'FeatureCollection', 'features', i], issues));
  } else if (body['type'] === 'Feature') {
    validateFeature(body, ['body', 'Feature'], issues);
  } else {
    issues.push({
      type: 'union_tag_invalid',
      loc: ['body'],
      msg: `Input tag '${String(body['type'])}' found using 'type' does not match any of the expected tags: 'FeatureCollection', 'Feature'`,
      input: body,
      ctx: { discriminator: "'type'", tag: String(body['type']), expected_tags: "'FeatureCollection', 'Feature'" },
    });
  }
  if (issues.length) throw new RequestValidationError(issues);
  return body as unknown as Feature | FeatureCollection;
}

/** A single Feature (POST /feature). */
export function parseFeature(body: unknown): Feature {
  const issues: ValidationIssue[] = [];
  validateFeature(body, ['body'], issues);
  if (issues.length) throw new RequestValidationError(issues);
  return body as Feature;
}
