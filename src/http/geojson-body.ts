/**
 * Validation of GeoJSON request bodies (TiTiler uses geojson-pydantic): a Feature needs `type`,
 * `geometry` and a `properties` member (null allowed); a FeatureCollection needs `features`.
 * Beyond geojson-pydantic, geometries must be usable for a read: not empty at any level, finite
 * positions, closed rings of at least four positions, and the body within the feature and vertex
 * limits. Failures are FastAPI-style 422 issues located in the body (`loc`).
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

/** Limits of one body; the defaults are overridable with RASTILE_MAX_FEATURES and RASTILE_MAX_VERTICES. */
export interface GeoJsonLimits {
  /** Most features in a FeatureCollection (each is one read). */
  maxFeatures: number;
  /** Most positions in the whole body (rasterising and reprojecting cost grows with them). */
  maxVertices: number;
}

const positiveInt = (v: string | undefined, fallback: number): number => {
  const n = v === undefined ? NaN : Number(v);
  return Number.isSafeInteger(n) && n > 0 ? n : fallback;
};

export const GEOJSON_LIMITS: GeoJsonLimits = {
  maxFeatures: positiveInt(process.env['RASTILE_MAX_FEATURES'], 1000),
  maxVertices: positiveInt(process.env['RASTILE_MAX_VERTICES'], 100_000),
};

/** A body with thousands of bad positions answers with the first ones, not a multi-MB error. */
const MAX_ISSUES = 50;

type Loc = Array<string | number>;

class Walk {
  readonly issues: ValidationIssue[] = [];
  vertices = 0;
  constructor(readonly limits: GeoJsonLimits) {}
  get full(): boolean {
    return this.issues.length >= MAX_ISSUES || this.vertices > this.limits.maxVertices;
  }
  add(issue: ValidationIssue): void {
    if (this.issues.length < MAX_ISSUES) this.issues.push(issue);
  }
  value(loc: Loc, message: string, input: unknown): void {
    this.add({ type: 'value_error', loc, msg: `Value error, ${message}`, input, ctx: { error: {} } });
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Short stand-in for a large input echoed in an issue. */
const echo = (v: unknown): unknown => (Array.isArray(v) && v.length > 8 ? `[${v.length} items]` : v);

function checkPosition(p: unknown, loc: Loc, w: Walk): void {
  w.vertices++;
  if (!Array.isArray(p) || p.length < 2 || p.length > 3 || !p.every((n) => typeof n === 'number' && Number.isFinite(n))) {
    w.value(loc, 'a position must be an array of 2 or 3 finite numbers', echo(p));
  }
}

/** Arrays nested `depth` levels above positions, each level non-empty (`min` items at the last one). */
function checkNested(v: unknown, depth: number, loc: Loc, w: Walk, minLeaf: number): void {
  if (w.full) return;
  if (depth === 0) return checkPosition(v, loc, w);
  if (!Array.isArray(v)) {
    w.add({ type: 'list_type', loc, msg: 'Input should be a valid list', input: echo(v) });
    return;
  }
  if (typeof v[0] === 'number') {
    // a position where a list of them belongs (a ring given as a polygon, …)
    w.add({ type: 'list_type', loc: [...loc, 0], msg: 'Input should be a valid list', input: v[0] });
    return;
  }
  const min = depth === 1 ? minLeaf : 1;
  if (v.length < min) {
    w.add({
      type: 'too_short',
      loc,
      msg: `List should have at least ${min} item${min === 1 ? '' : 's'} after validation, not ${v.length}`,
      input: v,
      ctx: { field_type: 'List', min_length: min, actual_length: v.length },
    });
    return;
  }
  for (let i = 0; i < v.length && !w.full; i++) checkNested(v[i], depth - 1, [...loc, i], w, minLeaf);
}

const samePosition = (a: unknown, b: unknown): boolean => Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => x === b[i]);

/** Rings (already checked for shape) must end where they start. */
function checkRingsClosed(rings: unknown, loc: Loc, w: Walk): void {
  if (!Array.isArray(rings)) return;
  rings.forEach((ring, i) => {
    if (Array.isArray(ring) && ring.length >= 4 && !samePosition(ring[0], ring[ring.length - 1])) {
      w.value([...loc, i], 'All linear rings have the same start and end coordinates', echo(ring));
    }
  });
}

/** Nesting above positions, and the fewest positions in the innermost list. */
const SHAPES: Record<string, { depth: number; minLeaf: number }> = {
  Point: { depth: 0, minLeaf: 1 },
  MultiPoint: { depth: 1, minLeaf: 1 },
  LineString: { depth: 1, minLeaf: 2 },
  MultiLineString: { depth: 2, minLeaf: 2 },
  Polygon: { depth: 2, minLeaf: 4 },
  MultiPolygon: { depth: 3, minLeaf: 4 },
};

function validateGeometry(g: unknown, loc: Loc, w: Walk, collectionDepth = 0): void {
  if (!isObject(g)) {
    w.add({ type: 'model_type', loc, msg: 'Input should be a valid dictionary or object', input: echo(g) });
    return;
  }
  const type = g['type'];
  if (typeof type !== 'string' || !(GEOMETRY_TYPES as readonly string[]).includes(type)) {
    w.add({
      type: 'union_tag_invalid',
      loc: [...loc, 'type'],
      msg: `Input tag '${String(type)}' found using 'type' does not match any of the expected tags: ${GEOMETRY_TYPES.map((t) => `'${t}'`).join(', ')}`,
      input: String(type),
    });
    return;
  }
  if (type === 'GeometryCollection') {
    const geoms = g['geometries'];
    if (!Array.isArray(geoms)) w.add({ type: 'missing', loc: [...loc, 'geometries'], msg: 'Field required', input: null });
    else if (geoms.length === 0) w.value([...loc, 'geometries'], 'a GeometryCollection must hold at least one geometry', geoms);
    else if (collectionDepth >= 8) w.value([...loc, 'geometries'], 'GeometryCollections nest at most 8 levels', '[…]');
    else for (let i = 0; i < geoms.length && !w.full; i++) validateGeometry(geoms[i], [...loc, 'geometries', i], w, collectionDepth + 1);
    return;
  }
  if (!('coordinates' in g)) {
    w.add({ type: 'missing', loc: [...loc, 'coordinates'], msg: 'Field required', input: null });
    return;
  }
  const shape = SHAPES[type]!;
  const coords = g['coordinates'];
  const before = w.issues.length;
  checkNested(coords, shape.depth, [...loc, 'coordinates'], w, shape.minLeaf);
  if (w.issues.length > before || !Array.isArray(coords)) return;
  if (type === 'Polygon') checkRingsClosed(coords, [...loc, 'coordinates'], w);
  if (type === 'MultiPolygon') coords.forEach((poly, i) => checkRingsClosed(poly, [...loc, 'coordinates', i], w));
}

function validateFeature(f: unknown, loc: Loc, w: Walk): void {
  if (!isObject(f)) {
    w.add({ type: 'model_type', loc, msg: 'Input should be a valid dictionary or object', input: echo(f) });
    return;
  }
  if (f['type'] !== 'Feature') w.add({ type: 'literal_error', loc: [...loc, 'type'], msg: "Input should be 'Feature'", input: echo(f['type']) });
  if (!('geometry' in f)) w.add({ type: 'missing', loc: [...loc, 'geometry'], msg: 'Field required', input: null });
  else if (f['geometry'] === null) w.value([...loc, 'geometry'], 'geometry must not be null', null);
  else validateGeometry(f['geometry'], [...loc, 'geometry'], w);
  if (!('properties' in f)) w.add({ type: 'missing', loc: [...loc, 'properties'], msg: 'Field required', input: null });
  else if (f['properties'] !== null && !isObject(f['properties'])) {
    w.add({ type: 'dict_type', loc: [...loc, 'properties'], msg: 'Input should be a valid dictionary', input: echo(f['properties']) });
  }
}

function finish(w: Walk, loc: Loc): void {
  if (w.vertices > w.limits.maxVertices) {
    w.issues.unshift({
      type: 'too_long',
      loc,
      msg: `Value error, the body holds more than ${w.limits.maxVertices} positions (RASTILE_MAX_VERTICES)`,
      input: null,
      ctx: { max_vertices: w.limits.maxVertices },
    });
  }
  if (w.issues.length) throw new RequestValidationError(w.issues.slice(0, MAX_ISSUES));
}

/** A Feature or a FeatureCollection (POST /statistics). */
export function parseFeatureOrCollection(body: unknown, limits: GeoJsonLimits = GEOJSON_LIMITS): Feature | FeatureCollection {
  const w = new Walk(limits);
  if (!isObject(body)) {
    throw new RequestValidationError([
      { type: 'model_attributes_type', loc: ['body'], msg: 'Input should be a valid dictionary or object to extract fields from', input: echo(body ?? null) },
    ]);
  }
  if (body['type'] === 'FeatureCollection') {
    const features = body['features'];
    const loc = ['body', 'FeatureCollection', 'features'];
    if (!Array.isArray(features)) w.add({ type: 'missing', loc, msg: 'Field required', input: null });
    else if (features.length === 0) w.value(loc, 'a FeatureCollection must hold at least one feature', features);
    else if (features.length > limits.maxFeatures) {
      w.add({
        type: 'too_long',
        loc,
        msg: `List should have at most ${limits.maxFeatures} items after validation, not ${features.length} (RASTILE_MAX_FEATURES)`,
        input: `[${features.length} features]`,
        ctx: { field_type: 'List', max_length: limits.maxFeatures, actual_length: features.length },
      });
    } else for (let i = 0; i < features.length && !w.full; i++) validateFeature(features[i], [...loc, i], w);
    finish(w, loc);
  } else if (body['type'] === 'Feature') {
    validateFeature(body, ['body', 'Feature'], w);
    finish(w, ['body', 'Feature', 'geometry']);
  } else {
    throw new RequestValidationError([
      {
        type: 'union_tag_invalid',
        loc: ['body'],
        msg: `Input tag '${String(body['type'])}' found using 'type' does not match any of the expected tags: 'FeatureCollection', 'Feature'`,
        input: echo(body['type']),
        ctx: { discriminator: "'type'", tag: String(body['type']), expected_tags: "'FeatureCollection', 'Feature'" },
      },
    ]);
  }
  return body as unknown as Feature | FeatureCollection;
}

/** A single Feature (POST /feature). */
export function parseFeature(body: unknown, limits: GeoJsonLimits = GEOJSON_LIMITS): Feature {
  const w = new Walk(limits);
  validateFeature(body, ['body'], w);
  finish(w, ['body', 'geometry']);
  return body as Feature;
}
