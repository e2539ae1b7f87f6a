/**
 * GDAL's PAM sidecar (`<file>.aux.xml`, a `<PAMDataset>` document) and how GDAL 3.6's GTiff
 * driver lets it amend what the TIFF itself says (GTiffDataset::ApplyPamInfo, checked against
 * rasterio 1.3):
 * - metadata items, dataset and band, per domain: the PAM value replaces the TIFF's item of the
 *   same key, other TIFF items stay;
 * - band description, scale/offset, unit and nodata: the TIFF's own value when it has one, else
 *   the PAM's;
 * - geotransform and SRS: the PAM's when present (GDAL_GEOREF_SOURCES defaults to PAM first).
 * Histograms, colour interpretation and other PAM elements are not used.
 *
 * A regular-expression reader is enough for the flat elements GDAL writes; XML-valued metadata
 * domains (`xml:…`) are skipped.
 */
import type { GeoTransform } from '../../geo/affine.ts';
import type { Source } from '../../sources/source.ts';
import type { DatasetMeta, TiffBandMeta } from './dataset-meta.ts';
import { parseGdalNumber, unescapeXml } from './gdal-metadata.ts';

export interface PamBand {
  description?: string;
  nodata?: number;
  offset?: number;
  scale?: number;
  unit?: string;
  /** Default-domain items. */
  metadata: Record<string, string>;
}

export interface PamInfo {
  /** SRS text as stored (WKT, or any user input GDAL accepts). */
  srs?: string;
  geoTransform?: GeoTransform;
  /** Default-domain dataset items. */
  metadata: Record<string, string>;
  /** Keyed by 1-based band number. */
  bands: Map<number, PamBand>;
}

const BAND = /<PAMRasterBand\b([^>]*)>([\s\S]*?)<\/PAMRasterBand\s*>/g;
const METADATA = /<Metadata\b([^>]*?)(?:\/>|>([\s\S]*?)<\/Metadata\s*>)/g;
const MDI = /<MDI\b([^>]*)>([\s\S]*?)<\/MDI\s*>/g;
const ATTR = /([A-Za-z_][\w.:-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

function attributes(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const a of text.matchAll(ATTR)) out[a[1].toLowerCase()] = unescapeXml(a[2] ?? a[3] ?? '');
  return out;
}

/** Text of the first `<name>` element directly in `xml` (not inside bands: callers strip them). */
function element(xml: string, name: string): string | undefined {
  const m = new RegExp(`<${name}\\b[^>]*?(?:/>|>([\\s\\S]*?)</${name}\\s*>)`).exec(xml);
  return m ? unescapeXml(m[1] ?? '') : undefined;
}

/** Default-domain `<MDI>` items of the `<Metadata>` elements in `xml`. */
function defaultDomainItems(xml: string): Record<string, string> {
  const items: Record<string, string> = {};
  for (const m of xml.matchAll(METADATA)) {
    const domain = attributes(m[1]).domain ?? '';
    if (domain !== '') continue;
    for (const item of (m[2] ?? '').matchAll(MDI)) {
      const key = attributes(item[1]).key;
      if (key !== undefined) items[key] = unescapeXml(item[2]);
    }
  }
  return items;
}

function number(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  return parseGdalNumber(text.trim()) ?? undefined;
}

export function parsePam(xml: string): PamInfo {
  const bands = new Map<number, PamBand>();
  for (const m of xml.matchAll(BAND)) {
    const n = Number.parseInt(attributes(m[1]).band ?? '', 10);
    if (!Number.isInteger(n) || n < 1) continue;
    const body = m[2].replace(/<Histograms\b[\s\S]*?<\/Histograms\s*>/g, '');
    const band: PamBand = { metadata: defaultDomainItems(body) };
    const description = element(body, 'Description');
    if (description !== undefined) band.description = description;
    const nodata = number(element(body, 'NoDataValue'));
    if (nodata !== undefined) band.nodata = nodata;
    const offset = number(element(body, 'Offset'));
    if (offset !== undefined) band.offset = offset;
    const scale = number(element(body, 'Scale'));
    if (scale !== undefined) band.scale = scale;
    const unit = element(body, 'UnitType');
    if (unit !== undefined) band.unit = unit;
    bands.set(n, band);
  }
  const top = xml.replace(BAND, '');
  const info: PamInfo = { metadata: defaultDomainItems(top), bands };
  const srs = element(top, 'SRS')?.trim();
  if (srs) info.srs = srs;
  const gt = element(top, 'GeoTransform')
    ?.split(',')
    .map((v) => Number(v.trim()));
  if (gt && gt.length === 6 && gt.every(Number.isFinite)) info.geoTransform = gt as unknown as GeoTransform;
  return info;
}

/** The TIFF's description amended by its PAM sidecar, with GDAL's precedence (see above). */
export function applyPam(meta: DatasetMeta, pam: PamInfo): DatasetMeta & { srs: string | null } {
  const bands: TiffBandMeta[] = meta.bands.map((b, i) => {
    const p = pam.bands.get(i + 1);
    if (p === undefined) return b;
    return {
      ...b,
      description: b.description !== '' ? b.description : (p.description ?? ''),
      scale: b.scaleOffsetSet ? b.scale : (p.scale ?? b.scale),
      offset: b.scaleOffsetSet ? b.offset : (p.offset ?? b.offset),
      unit: b.unit !== '' ? b.unit : (p.unit ?? ''),
      metadata: { ...b.metadata, ...p.metadata },
    };
  });
  // GDAL keeps nodata per band; rasterio's dataset nodata (what rio-tiler uses) is band 1's.
  const pamNodata = pam.bands.get(1)?.nodata;
  return {
    ...meta,
    geoTransform: pam.geoTransform ?? meta.geoTransform,
    nodata: meta.nodata ?? pamNodata ?? null,
    bands,
    datasetMetadata: { ...meta.datasetMetadata, ...pam.metadata },
    srs: pam.srs ?? null,
  };
}

/** Largest `.aux.xml` read (GDAL's hold statistics and histograms: a few KB). */
const MAX_PAM_BYTES = 1024 * 1024;

/** Reads and parses a PAM sidecar; a missing, oversized or unparsable one is ignored with a warning (as GDAL does). */
export async function readPamSidecar(source: Source | undefined, warnings: string[], signal?: AbortSignal): Promise<PamInfo | null> {
  if (source === undefined) return null;
  const bytes = await source.fetch(0, MAX_PAM_BYTES + 1, signal);
  if (bytes.length > MAX_PAM_BYTES) {
    warnings.push(`Ignored PAM sidecar '${source.url}': larger than ${MAX_PAM_BYTES} bytes`);
    return null;
  }
  const xml = new TextDecoder().decode(bytes);
  if (!/<PAMDataset\b/.test(xml)) {
    warnings.push(`Ignored PAM sidecar '${source.url}': no <PAMDataset> element`);
    return null;
  }
  return parsePam(xml);
}
