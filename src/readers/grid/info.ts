/** The /info record of a gridded dataset (rio-tiler `Info`), fields in TiTiler's order. */
import { crsInfoString } from '../../geo/crs.ts';
import type { Bounds } from '../../geo/bounds.ts';
import type { GridDataset } from '../../formats/grid-dataset.ts';
import type { Info } from '../info.ts';

/** Bounds as rasterio reports them: for a rectilinear south-up raster minY > maxY (kept as is). */
function rasterioBounds(ds: GridDataset): Bounds {
  const gt = ds.geoTransform;
  if (gt[2] === 0 && gt[4] === 0) return [gt[0], gt[3] + gt[5] * ds.height, gt[0] + gt[1] * ds.width, gt[3]];
  return ds.bounds;
}

export function datasetInfo(ds: GridDataset): Info {
  const info: Info = {
    bounds: rasterioBounds(ds),
    crs: crsInfoString(ds.crs),
    band_metadata: ds.bands.map((b, i) => [`b${i + 1}`, { ...b.metadata }]),
    band_descriptions: ds.bands.map((b, i) => [`b${i + 1}`, b.description || `b${i + 1}`]),
    dtype: ds.dtype,
    nodata_type: ds.nodataType,
    colorinterp: ds.bands.map((b) => b.colorInterp),
    scales: ds.bands.map((b) => b.scale),
    offsets: ds.bands.map((b) => b.offset),
    driver: ds.driver,
    count: ds.count,
    width: ds.width,
    height: ds.height,
    overviews: ds.levels.slice(1).map((l) => Math.round(ds.width / l.width)),
  };
  if (ds.colormap) info.colormap = Object.fromEntries([...ds.colormap].map(([i, c]) => [String(i), c]));
  if (ds.nodata !== null) info.nodata_value = Number.isNaN(ds.nodata) ? null : ds.nodata;
  const minmax: Array<[number, number]> = [];
  for (const b of ds.bands) if (b.statistics) minmax.push([b.statistics[0], b.statistics[1]]);
  if (minmax.length > 0) info.minmax = minmax;
  return info;
}
