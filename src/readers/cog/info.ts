/** The /info record of a GeoTIFF (rio-tiler `Info`), fields in TiTiler's order. */
import { crsInfoString } from '../../geo/crs.ts';
import type { Bounds } from '../../geo/bounds.ts';
import type { DType } from '../../dtype.ts';
import type { Rgba } from '../../raster/image-data.ts';
import type { CogDataset, NodataType } from './cog-dataset.ts';

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

/** Bounds as rasterio reports them: for a rectilinear south-up raster minY > maxY (kept as is). */
function rasterioBounds(ds: CogDataset): Bounds {
  const gt = ds.geoTransform;
  if (gt[2] === 0 && gt[4] === 0) return [gt[0], gt[3] + gt[5] * ds.tiff.height, gt[0] + gt[1] * ds.tiff.width, gt[3]];
  return ds.bounds;
}

export function cogInfo(ds: CogDataset): Info {
  const t = ds.tiff;
  const info: Info = {
    bounds: rasterioBounds(ds),
    crs: crsInfoString(ds.crs),
    band_metadata: t.bands.map((b, i) => [`b${i + 1}`, { ...b.metadata }]),
    band_descriptions: t.bands.map((b, i) => [`b${i + 1}`, b.description || `b${i + 1}`]),
    dtype: t.dtype,
    nodata_type: ds.nodataType,
    colorinterp: t.bands.map((b) => b.colorInterp),
    scales: t.bands.map((b) => b.scale),
    offsets: t.bands.map((b) => b.offset),
    driver: 'GTiff',
    count: t.count,
    width: t.width,
    height: t.height,
    overviews: t.levels.slice(1).map((l) => Math.round(t.width / l.width)),
  };
  if (t.palette) info.colormap = Object.fromEntries(t.palette.map((c, i) => [String(i), c]));
  if (ds.nodata !== null) info.nodata_value = Number.isNaN(ds.nodata) ? null : ds.nodata;
  const minmax: Array<[number, number]> = [];
  for (const s of ds.bandStatistics) if (s) minmax.push([s[0], s[1]]);
  if (minmax.length > 0) info.minmax = minmax;
  return info;
}
