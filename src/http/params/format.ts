/**
 * Output format parameters: `f` negotiation for JSON/HTML endpoints with TiTiler's Accept
 * algorithm (§1.5), and the image `{format}` path segment.
 */
import { IMAGE_FORMATS, mediaType, type ImageFormat } from '../../raster/render/index.ts';
import { P } from '../validation/params.ts';

export const fParam = { f: P.literal(['html', 'json'] as const).describe('Response media type.') };

export const imageFormatPathParam = { format: P.enumeration(IMAGE_FORMATS).path().describe('Output image type.') };

/**
 * TiTiler's accept_media_type: q-groups in descending order, candidates in the endpoint's order,
 * exact media-type match; a bare `*` picks the first candidate. `*\/*` is not a wildcard (TiTiler quirk kept).
 */
function negotiate(accept: string | undefined, candidates: readonly string[]): string | null {
  if (!accept) return null;
  const groups = new Map<number, Set<string>>();
  let star = false;
  for (const entry of accept.replace(/\s/g, '').split(',')) {
    const [name, ...params] = entry.split(';');
    let q = 1;
    for (const p of params) {
      const [k, v] = p.split('=');
      if (k === 'q') {
        const n = Number(v);
        q = Number.isFinite(n) ? n : 0;
      }
    }
    if (q === 0 || !name) continue;
    if (name === '*') star = true;
    const set = groups.get(q) ?? new Set<string>();
    set.add(name);
    groups.set(q, set);
  }
  for (const q of [...groups.keys()].sort((a, b) => b - a)) {
    const set = groups.get(q)!;
    for (const c of candidates) if (set.has(c)) return c;
  }
  return star ? (candidates[0] ?? null) : null;
}

export function wantsHtml(f: 'html' | 'json' | undefined, accept: string | undefined): boolean {
  if (f) return f === 'html';
  return negotiate(accept, ['text/html', 'application/json']) === 'text/html';
}

/** The image format an `Accept` header asks for (TiTiler: candidates in ImageType order), or null. */
export function negotiateImageFormat(accept: string | undefined): ImageFormat | null {
  const media = negotiate(
    accept,
    IMAGE_FORMATS.map((f) => mediaType(f)),
  );
  return media === null ? null : (IMAGE_FORMATS.find((f) => mediaType(f) === media) ?? null);
}
