/**
 * What a router needs to know about its kind of data: the parameters that name the data and
 * select its bands, and how to open an ImageReader for them. /cog, /stac and the granule-search
 * routers differ only here; every endpoint below is shared.
 */
import type { ImageReader } from '../../readers/image-reader.ts';
import type { ParamDefs, ParsedParams } from '../validation/params.ts';

export interface ImageBackend<D extends ParamDefs = ParamDefs> {
  /** Router prefix, e.g. `/cog`. */
  prefix: string;
  /** OpenAPI tag of the router's routes. */
  tag: string;
  /** Identifies the data and selects bands (e.g. url + bidx + expression). */
  params: D;
  open(params: ParsedParams<D>, signal: AbortSignal): Promise<ImageReader>;
  /** Extra TileJSON members (band_descriptions, data_type, minmax for a single dataset). */
  tileJsonExtras?(params: ParsedParams<D>, signal: AbortSignal): Promise<Record<string, unknown>>;
  /** Name of the data in WMTS layer titles (the `url` for /cog). */
  layerTitle(params: ParsedParams<D>): string;
}
