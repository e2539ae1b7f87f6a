/**
 * Coordinate transformation API: point transformers (transformer.ts) and GDAL-compatible bounds
 * reprojection (transform-bounds.ts).
 */
export { getTransformer, transformPoint, type Transformer } from './transformer.ts';
export { transformBounds } from './transform-bounds.ts';
export { datasetGeographicBounds, WORLD_BOUNDS } from './geographic-bounds.ts';
