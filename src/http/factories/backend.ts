/**
 * What a router needs to know about its kind of data: the parameters that name the data and
 * select its bands, how to open an ImageReader for them, and which shared endpoints make sense
 * for it. /cog, /stac and the granule-search routers differ only here; every endpoint below is
 * shared.
 */
import type { ImageReader } from '../../readers/image-reader.ts';
import type { ParamDefs, ParsedParams } from '../validation/params.ts';

export interface ImageBackend<D extends ParamDefs = ParamDefs, R extends ImageReader = ImageReader> {
  /** Router prefix, e.g. `/cog`. */
  prefix: string;
  /** OpenAPI tag of the router's routes. */
  tag: string;
  /** Identifies the data and selects bands (e.g. url + bidx + expression). */
  params: D;
  /**
   * false when the data has no whole-dataset extent worth previewing (granule mosaics: the search
   * area may be the world): no /preview routes and no GET /statistics. Default true.
   */
  wholeDatasetPreview?: boolean;
  /**
   * true when the router serves its own /point route (granule mosaics answer per granule), so the
   * shared single-image one is not registered. Default false.
   */
  ownPointRoute?: boolean;
  open(params: ParsedParams<D>, signal: AbortSignal): Promise<R>;
  /** Extra TileJSON members (band_descriptions, data_type, minmax for a single dataset), from the reader `open` gave. */
  tileJsonExtras?(params: ParsedParams<D>, reader: R): Record<string, unknown>;
  /** Name of the data in WMTS layer titles (the `url` for /cog). */
  layerTitle(params: ParsedParams<D>): string;
}
