/**
 * rio-cogeo's `cog_info` for one GeoTIFF (GET /cog/validate, `rastile validate`): the COG verdict
 * from our own TIFF header walk (src/formats/tiff/cog-layout.ts, cog-rules.ts) plus the profile and
 * georeferencing the reader already knows.
 */
import { checkCog } from '../formats/tiff/cog-rules.ts';
import { readCogLayout } from '../formats/tiff/cog-layout.ts';
import { COMPRESSION_NAMES, PHOTOMETRIC_NAMES } from '../formats/tiff/tag-names.ts';
import { getTileMatrixSet } from '../geo/tms.ts';
import type { Services } from './services.ts';

export interface CogInfo {
  Path: string;
  Driver: string;
  COG: boolean;
  Compression: string | null;
  ColorSpace: string | null;
  COG_errors: string[];
  COG_warnings: string[];
  Profile: Record<string, unknown>;
  GEO: Record<string, unknown>;
  Tags: Record<string, Record<string, string>>;
  IFD: Array<{ Level: number; Width: number; Height: number; Blocksize: [number, number]; Decimation: number }>;
}

export async function cogInfo(services: Services, url: string, strict: boolean, signal?: AbortSignal): Promise<CogInfo> {
  const [reader, source] = await Promise.all([services.openCog(url, signal), services.sources.open(url, signal)]);
  const layout = await readCogLayout(source, services.config.limits.maxBlockBytes, signal);
  const info = reader.info();
  const externalOverviews = Math.max(0, info.overviews.length - layout.images.filter((im) => im.reduced && !im.mask).length);
  const verdict = checkCog(layout, externalOverviews);
  const { main, overviews } = verdict;
  const [minx, miny, maxx, maxy] = info.bounds;
  const zooms = reader.zoomRange(getTileMatrixSet('WebMercatorQuad'));
  const valid = verdict.errors.length === 0 && (!strict || verdict.warnings.length === 0);
  return {
    Path: url,
    Driver: info.driver,
    COG: valid,
    Compression: COMPRESSION_NAMES[main.compression] ?? null,
    ColorSpace: main.photometric === null ? null : (PHOTOMETRIC_NAMES[main.photometric] ?? null),
    COG_errors: verdict.errors,
    COG_warnings: verdict.warnings,
    Profile: {
      Bands: info.count,
      Width: info.width,
      Height: info.height,
      Tiled: main.tiled,
      Dtype: info.dtype,
      Interleave: main.planar === 2 || info.count === 1 ? 'BAND' : 'PIXEL',
      AlphaBand: info.nodata_type === 'Alpha',
      InternalMask: layout.images.some((im) => im.mask),
      Nodata: info.nodata_type === 'Nodata' ? (info.nodata_value ?? null) : null,
      ColorInterp: info.colorinterp,
      ColorMap: info.colormap !== undefined,
      Scales: info.scales,
      Offsets: info.offsets,
    },
    GEO: {
      CRS: info.crs,
      BoundingBox: info.bounds,
      Origin: [minx, maxy],
      Resolution: [(maxx - minx) / info.width, -(maxy - miny) / info.height],
      MinZoom: zooms.minzoom,
      MaxZoom: zooms.maxzoom,
    },
    Tags: {
      'Image Structure': {
        ...(COMPRESSION_NAMES[main.compression] ? { COMPRESSION: COMPRESSION_NAMES[main.compression]! } : {}),
        INTERLEAVE: main.planar === 2 ? 'BAND' : 'PIXEL',
      },
    },
    IFD: [main, ...overviews].map((im, level) => ({
      Level: level,
      Width: im.width,
      Height: im.height,
      Blocksize: [im.blockHeight, im.blockWidth],
      Decimation: level === 0 ? 0 : Math.round(main.width / im.width),
    })),
  };
}
