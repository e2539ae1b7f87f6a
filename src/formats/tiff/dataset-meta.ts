/**
 * Dataset-level description of a TIFF as GDAL reports it, from the tags of its first image:
 * georeferencing, GeoKeys, nodata, GDAL_METADATA (dataset and band items, descriptions,
 * scales/offsets, units, colour-interpretation roles), palette, TIFFTAG_* text metadata.
 */
import type { TiffImage } from '@cogeotiff/core';
import type { GeoTransform } from '../../geo/affine.ts';
import type { Rgba } from '../../color.ts';
import { bitmapPalette, colorInterpretations, invertedGreyPalette, paletteFromColorMap, Photometric } from './band-meta.ts';
import { parseGdalMetadata, parseGdalNodata } from './gdal-metadata.ts';
import { geoTransformFromTags } from './geotransform.ts';
import { gcpsFromTiepoints, type Gcp } from './gcp-fit.ts';
import type { IfdLayout } from './ifd-layout.ts';
import { asNumbers, asText, Tag } from './tiff-tags.ts';

export interface TiffBandMeta {
  /** '' when none. */
  description: string;
  /** 1 / 0 by default. */
  scale: number;
  offset: number;
  /** The TIFF itself stores a scale or offset (GDAL then ignores the PAM sidecar's). */
  scaleOffsetSet: boolean;
  /** GDAL-style lower-case name: gray, red, green, blue, alpha, palette, undefined, … */
  colorInterp: string;
  /** Unit (GDAL's UNITTYPE role), '' when none. */
  unit: string;
  /** Default-domain band items (e.g. STATISTICS_MINIMUM). */
  metadata: Record<string, string>;
}

export interface DatasetMeta {
  geoTransform: GeoTransform | null;
  /** The ground control points when the geotransform is their fit (several tiepoints, no scale or matrix), else null. */
  gcps: Gcp[] | null;
  geoKeys: Map<number, number | string | number[]>;
  nodata: number | null;
  bands: TiffBandMeta[];
  datasetMetadata: Record<string, string>;
  palette: Rgba[] | null;
}

/** Baseline ASCII tags GDAL reports as TIFFTAG_* dataset metadata. */
const TEXT_TAGS: Array<[number, string]> = [
  [Tag.DocumentName, 'TIFFTAG_DOCUMENTNAME'],
  [Tag.ImageDescription, 'TIFFTAG_IMAGEDESCRIPTION'],
  [Tag.Software, 'TIFFTAG_SOFTWARE'],
  [Tag.DateTime, 'TIFFTAG_DATETIME'],
  [Tag.Artist, 'TIFFTAG_ARTIST'],
  [Tag.HostComputer, 'TIFFTAG_HOSTCOMPUTER'],
  [Tag.Copyright, 'TIFFTAG_COPYRIGHT'],
];

/** Tags of the first image that `describeDataset` needs (read while the file is opened). */
export const DATASET_TAGS: number[] = [
  Tag.GdalMetadata,
  Tag.GdalNodata,
  Tag.ColorMap,
  Tag.ModelPixelScale,
  Tag.ModelTiepoint,
  Tag.ModelTransformation,
  ...TEXT_TAGS.map(([id]) => id),
];

const GT_RASTER_TYPE_GEOKEY = 1025;
const RASTER_PIXEL_IS_POINT = 2;

/** `tags` holds the values of DATASET_TAGS (absent tags missing or null). */
export function describeDataset(image0: TiffImage, base: IfdLayout, tags: Map<number, unknown>): DatasetMeta {
  const tag = (id: number): unknown => tags.get(id) ?? null;
  const metaXml = tag(Tag.GdalMetadata);
  const nodataText = tag(Tag.GdalNodata);
  const colorMap = tag(Tag.ColorMap);
  const pixelScale = tag(Tag.ModelPixelScale);
  const tiepoints = tag(Tag.ModelTiepoint);
  const transformation = tag(Tag.ModelTransformation);
  const geoKeys = readGeoKeys(image0);
  const nodata = parseGdalNodata(asText(nodataText));
  const meta = parseGdalMetadata(asText(metaXml));
  const geoTransform = geoTransformFromTags(
    {
      pixelScale: asNumbers(pixelScale),
      tiepoints: asNumbers(tiepoints),
      transformation: asNumbers(transformation),
      pixelIsPoint: geoKeys.get(GT_RASTER_TYPE_GEOKEY) === RASTER_PIXEL_IS_POINT,
    },
    base,
  );

  // GDAL 3.6: the ColorMap counts for Palette images; 1-bit single-band images are "bitmap" bands
  // with a black/white table; MinIsWhite images get an inverted grey table (but keep their
  // colour interpretation).
  const photometric = base.photometric ?? Photometric.MinIsBlack;
  const mapValues = asNumbers(colorMap);
  const bitmap = base.bitsPerSample === 1 && base.samplesPerPixel === 1;
  let palette: Rgba[] | null = null;
  if (photometric === Photometric.Palette && mapValues !== null && base.bitsPerSample <= 16) {
    palette = paletteFromColorMap(mapValues, nodata);
  } else if (bitmap) {
    palette = bitmapPalette(photometric);
  } else if (photometric === Photometric.MinIsWhite && base.bitsPerSample <= 8) {
    palette = invertedGreyPalette(base.bitsPerSample);
  }

  const interps = colorInterpretations({
    photometric,
    compression: base.compression,
    samplesPerPixel: base.samplesPerPixel,
    bitsPerSample: base.bitsPerSample,
    extraSamples: base.extraSamples,
    hasPalette: palette !== null && (photometric === Photometric.Palette || bitmap),
  });
  const bands: TiffBandMeta[] = interps.map((ci, i) => {
    const b = meta.bands.get(i);
    return {
      description: b?.description ?? '',
      scale: b?.scale ?? 1,
      offset: b?.offset ?? 0,
      scaleOffsetSet: b?.scale !== undefined || b?.offset !== undefined,
      // GDAL's bitmap bands always report palette; other bands honour a stored colorinterp role
      colorInterp: bitmap ? ci : (b?.colorInterp ?? ci),
      unit: b?.unit ?? '',
      metadata: { ...(b?.items ?? {}) },
    };
  });

  const datasetMetadata: Record<string, string> = {};
  const rasterType = geoKeys.get(GT_RASTER_TYPE_GEOKEY);
  if (rasterType !== undefined) datasetMetadata.AREA_OR_POINT = rasterType === RASTER_PIXEL_IS_POINT ? 'Point' : 'Area';
  for (const [id, name] of TEXT_TAGS) {
    const t = asText(tag(id));
    if (t !== null) datasetMetadata[name] = t;
  }
  Object.assign(datasetMetadata, meta.dataset);
  const tie = asNumbers(tiepoints);
  const gcps =
    geoTransform !== null && asNumbers(pixelScale) === null && asNumbers(transformation) === null && tie !== null && tie.length >= 12
      ? gcpsFromTiepoints(tie, geoKeys.get(GT_RASTER_TYPE_GEOKEY) === RASTER_PIXEL_IS_POINT)
      : null;
  return { geoTransform, gcps, geoKeys, nodata, bands, datasetMetadata, palette };
}

function readGeoKeys(image: TiffImage): Map<number, number | string | number[]> {
  const out = new Map<number, number | string | number[]>();
  for (const [key, value] of image.tagsGeo) {
    if (typeof value === 'number' || typeof value === 'string') out.set(Number(key), value);
    else if (Array.isArray(value)) out.set(Number(key), value.map(Number));
  }
  return out;
}
