/** Tile parameters: tilesize, buffer, padding, plus tilejson/map options. */
import { IMAGE_FORMATS } from '../../raster/render/index.ts';
import { fail, Problems } from '../validation/issues.ts';
import { P } from '../validation/params.ts';

/** Largest `buffer` and `padding` (pixels on each side of a tile). */
export const MAX_BUFFER = 512;
/** Deepest zoom level a client may name in an override (the deepest level of our tile matrix sets is 30). */
export const MAX_ZOOM = 30;

const REMOVED_SCALE = 'was removed in version 2 (TiTiler 2.0): use the `tilesize` query parameter instead (e.g. `tilesize=512` for 256-pixel tiles at scale 2)';

export const tilesizeParam = {
  tilesize: P.int().ge(64).le(4096).describe('Tilesize in pixels (default: the tile matrix tile size).'),
  /** TiTiler 1.x `tile_scale`: a 422 that names its replacement (not silently ignored). */
  tile_scale: P.custom<never>(() => fail(Problems.value(`\`tile_scale\` ${REMOVED_SCALE}`)), { type: 'integer' }).hidden(),
};

/** A tile row; the TiTiler 1.x `{y}@{scale}x` suffix is a 422 that names its replacement. */
const plainInt = P.int();
export const tileRowParam = P.custom<number>(
  (raw) => (/^\s*\d+@\d+(\.\d+)?x\s*$/.test(raw) ? fail(Problems.value(`the \`@{scale}x\` tile suffix ${REMOVED_SCALE}`)) : plainInt.parseValue(raw)),
  { type: 'integer' },
);

export const tileBufferParams = {
  buffer: P.float()
    .gt(0)
    .le(MAX_BUFFER)
    .check((v) => (v % 0.5 !== 0 ? fail(Problems.value('`buffer` must be a multiple of `0.5` (e.g: 0.5, 1, 1.5, ...).')) : undefined))
    .describe('Buffer on each side of the given tile. It must be a multiple of `0.5`. Output **tilesize** will be expanded to `tilesize + 2 * buffer`.'),
  padding: P.int().gt(0).le(MAX_BUFFER).describe('Padding to apply to each tile edge. Helps reduce resampling artefacts along edges.'),
};

/** Overrides of the dataset's zoom range (tile set metadata, TileJSON, map page). */
export const zoomOverrideParams = {
  minzoom: P.int().ge(0).le(MAX_ZOOM).describe('Overwrite default minzoom.'),
  maxzoom: P.int().ge(0).le(MAX_ZOOM).describe('Overwrite default maxzoom.'),
  _zoom_order: P.rule<{ minzoom: number; maxzoom: number }>(
    ['minzoom', 'maxzoom'],
    (v) => (v.minzoom <= v.maxzoom ? undefined : { key: 'maxzoom', problem: Problems.order('maxzoom must be greater than or equal to minzoom') }),
    'maxzoom must be greater than or equal to minzoom.',
  ),
};

export const tileJsonParams = {
  tile_format: P.enumeration(IMAGE_FORMATS).describe('Default will be automatically defined if the output image needs a mask (png) or not (jpeg).'),
  ...zoomOverrideParams,
};
