/**
 * GDAL's private TIFF tags: GDAL_METADATA (42112, an XML list of items) and GDAL_NODATA
 * (42113, text). A regular-expression reader is enough for the flat `<Item>` list GDAL writes
 * (no nesting, attributes in double or single quotes).
 */

export interface GdalBandItems {
  /** Default-domain band items (STATISTICS_*, custom tags). */
  items: Record<string, string>;
  description?: string;
  scale?: number;
  offset?: number;
  unit?: string;
  colorInterp?: string;
}

export interface GdalMetadata {
  /** Default-domain dataset items. */
  dataset: Record<string, string>;
  /** Keyed by 0-based sample index (GDAL's `sample` attribute). */
  bands: Map<number, GdalBandItems>;
}

const ITEM = /<Item\b([^>]*?)(?:\/>|>([\s\S]*?)<\/Item\s*>)/g;
const ATTR = /([A-Za-z_][\w.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

export function parseGdalMetadata(xml: string | null): GdalMetadata {
  const result: GdalMetadata = { dataset: {}, bands: new Map() };
  if (!xml) return result;
  for (const m of xml.matchAll(ITEM)) {
    const attrs: Record<string, string> = {};
    for (const a of m[1].matchAll(ATTR)) attrs[a[1].toLowerCase()] = unescapeXml(a[2] ?? a[3] ?? '');
    const name = attrs.name;
    if (name === undefined) continue;
    if (attrs.domain !== undefined && attrs.domain !== '') continue; // only the default domain
    // GDAL escapes the value before serialising the XML, so it is unescaped twice when read.
    const value = unescapeXml(unescapeXml(m[2] ?? ''));
    const sample = attrs.sample !== undefined ? Number.parseInt(attrs.sample, 10) : NaN;
    if (!Number.isInteger(sample) || sample < 0) {
      result.dataset[name] = value;
      continue;
    }
    let band = result.bands.get(sample);
    if (band === undefined) {
      band = { items: {} };
      result.bands.set(sample, band);
    }
    switch ((attrs.role ?? '').toLowerCase()) {
      case 'description':
        band.description = value;
        break;
      case 'scale':
        band.scale = parseGdalNumber(value) ?? undefined;
        break;
      case 'offset':
        band.offset = parseGdalNumber(value) ?? undefined;
        break;
      case 'unittype':
        band.unit = value;
        break;
      case 'colorinterp':
        band.colorInterp = value.toLowerCase();
        break;
      default:
        band.items[name] = value;
    }
  }
  return result;
}

export function unescapeXml(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (_, e: string) => {
    switch (e) {
      case 'amp':
        return '&';
      case 'lt':
        return '<';
      case 'gt':
        return '>';
      case 'quot':
        return '"';
      case 'apos':
        return "'";
      default:
        return String.fromCodePoint(e[1] === 'x' ? Number.parseInt(e.slice(2), 16) : Number.parseInt(e.slice(1), 10));
    }
  });
}

/**
 * A number as GDAL's CPLAtofM reads it: leading number of the text ("nan", "inf", "-inf",
 * "1e+20", " 5 "); text without a leading number reads as 0, as in GDAL.
 */
export function parseGdalNumber(text: string): number | null {
  const t = text.replace(/\0/g, '').trim().toLowerCase();
  if (/^[+-]?nan/.test(t)) return Number.NaN;
  if (/^\+?(inf|1\.#inf)/.test(t)) return Number.POSITIVE_INFINITY;
  if (/^-(inf|1\.#inf)/.test(t)) return Number.NEGATIVE_INFINITY;
  const m = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?/.exec(t);
  if (m === null) return 0;
  return Number(m[0]);
}

/** GDAL_NODATA text → value (NaN and ±Infinity allowed); null when the tag is absent. */
export function parseGdalNodata(text: string | null): number | null {
  if (text === null) return null;
  return parseGdalNumber(text);
}
