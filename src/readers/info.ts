/** The /info record of one dataset (rio-tiler `Info`), fields in TiTiler's order: part of the reader contract. */
import type { Rgba } from '../color.ts';
import type { DType } from '../dtype.ts';
import type { NodataType } from '../formats/grid-dataset.ts';
import type { Bounds } from '../geo/bounds.ts';

export interface Info {
  bounds: Bounds;
  crs: string;
  band_metadata: Array<[string, Record<string, string>]>;
  band_descriptions: Array<[string, string]>;
  dtype: DType;
  nodata_type: NodataType;
  colorinterp: string[];
  scales: number[];
  offsets: number[];
  colormap?: Record<string, Rgba>;
  driver: string;
  count: number;
  width: number;
  height: number;
  overviews: number[];
  nodata_value?: number | null;
  minmax?: Array<[number, number]>;
}
