/**
 * Data assets of a granule from its UMM-G `RelatedUrls` (titiler-cmr §4.2, adapted).
 *
 * 1. When `DataGranule.ArchiveAndDistributionInformation[].Name` lists file names (other than
 *    "Not provided"), only links whose file name is listed are kept — unless that would leave no
 *    data link at all (then the list is ignored; titiler-cmr would find no asset).
 * 2. Only `GET DATA` (http/https links → `href`) and `GET DATA VIA DIRECT ACCESS` (s3 links →
 *    `directHref`) are used; OPeNDAP subtypes are not files and are skipped.
 * 3. The file name (last path segment, URL-decoded) is split at its last dot into stem and
 *    extension: `X.B04.tif` → `X.B04` + `.tif`.
 * 4. Key: with a regex, the first match in the stem (links without a match are dropped); without,
 *    the stem, and the final keys are "0", "1", … in order of first appearance.
 * 5. Links with the same key merge (the https link gives `href`, the s3 link `directHref`; a later
 *    duplicate replaces an earlier one).
 * 6. Unlike titiler-cmr (which fails with a 500), an asset with only an https or only an s3 link is
 *    kept; the reader picks the link it can use.
 */
import type { GranuleAsset, Granule } from './types.ts';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const GET_DATA = 'GET DATA';
const DIRECT = 'GET DATA VIA DIRECT ACCESS';
const NOT_PROVIDED = 'not provided';

interface DataLink {
  url: string;
  kind: 'https' | 's3';
  fileName: string;
  stem: string;
  ext: string;
}

export function granuleAssets(granule: Granule, regex?: RegExp): GranuleAsset[] {
  const links = dataLinks(granule.umm);
  const listed = listedFileNames(granule.umm);
  const kept = listed.size > 0 && links.some((l) => listed.has(l.fileName)) ? links.filter((l) => listed.has(l.fileName)) : links;

  const matcher = regex === undefined ? undefined : firstMatchRegex(regex);
  const byKey = new Map<string, GranuleAsset>();
  for (const link of kept) {
    let key = link.stem;
    if (matcher !== undefined) {
      const m = matcher.exec(link.stem);
      if (m === null) continue;
      key = m[0];
    }
    const asset = byKey.get(key) ?? { key };
    if (link.kind === 's3') asset.directHref = link.url;
    else asset.href = link.url;
    asset.fileName = link.fileName;
    asset.ext = link.ext;
    byKey.set(key, asset);
  }
  const assets = [...byKey.values()];
  if (regex === undefined) assets.forEach((a, i) => (a.key = String(i)));
  return assets;
}

/**
 * `regex` without the global and sticky flags, so `exec` always searches the whole text from the
 * start (no `lastIndex` carried between links). Built once per call; the caller's own regex is
 * used as is when it has neither flag.
 */
function firstMatchRegex(regex: RegExp): RegExp {
  return regex.global || regex.sticky ? new RegExp(regex.source, regex.flags.replace(/[gy]/g, '')) : regex;
}

/** Hosts (`host[:port]`, lower-case) of the granule's https data links, to register with Earthdata auth. */
export function granuleDataHosts(granule: Granule): string[] {
  const hosts = new Set<string>();
  for (const link of dataLinks(granule.umm)) {
    if (link.kind !== 'https') continue;
    try {
      hosts.add(new URL(link.url).host.toLowerCase());
    } catch {
      // not a URL we could fetch anyway
    }
  }
  return [...hosts];
}

function dataLinks(umm: Record<string, unknown>): DataLink[] {
  const related = Array.isArray(umm['RelatedUrls']) ? umm['RelatedUrls'] : [];
  const out: DataLink[] = [];
  for (const r of related) {
    if (!isObject(r) || typeof r['URL'] !== 'string') continue;
    const type = typeof r['Type'] === 'string' ? r['Type'].toUpperCase() : '';
    if (type !== GET_DATA && type !== DIRECT) continue;
    if (typeof r['Subtype'] === 'string' && /OPENDAP/i.test(r['Subtype'])) continue;
    const url = r['URL'].trim();
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
    const kind = scheme === 's3' ? 's3' : scheme === 'https' || scheme === 'http' ? 'https' : undefined;
    if (kind === undefined) continue;
    const fileName = lastSegment(url);
    if (fileName === '') continue;
    const dot = fileName.lastIndexOf('.');
    out.push({
      url,
      kind,
      fileName,
      stem: dot > 0 ? fileName.slice(0, dot) : fileName,
      ext: dot > 0 ? fileName.slice(dot).toLowerCase() : '',
    });
  }
  return out;
}

function lastSegment(url: string): string {
  const path = url.replace(/[?#].*$/, '');
  const segment = path.slice(path.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function listedFileNames(umm: Record<string, unknown>): Set<string> {
  const dg = umm['DataGranule'];
  const infos = isObject(dg) && Array.isArray(dg['ArchiveAndDistributionInformation']) ? dg['ArchiveAndDistributionInformation'] : [];
  const names = new Set<string>();
  for (const info of infos) {
    if (isObject(info) && typeof info['Name'] === 'string' && info['Name'].trim().toLowerCase() !== NOT_PROVIDED) names.add(info['Name'].trim());
  }
  return names;
}
