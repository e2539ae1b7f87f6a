/**
 * The per-asset notation of the repeatable `assets` parameter (TiTiler 2.x, titiler spec §12.2):
 * `name` or `name|opt=value|opt=value…` with options `bidx=1,2` (band indexes),
 * `expression=<expr>` (evaluated on that asset's own b1..bN) and `bands=red,green` (band names
 * looked up in the asset's STAC band metadata). Unknown option keys are ignored.
 */

export interface AssetRequest {
  name: string;
  indexes?: number[];
  expression?: string;
  bands?: string[];
  /** Response key: the name, or `name|indexes=[1,2]&expression=b1*2` (options in the order given, Python-style values). */
  key: string;
}

/** The single `assets` value that selects every raster asset (info and statistics endpoints only). */
export const ALL_ASSETS = ':all:';

const INT = /^\s*[+-]?\d+\s*$/;

/** Parses one `assets` value; a string is the reason it is invalid. */
export function parseAssetRequest(value: string): AssetRequest | string {
  const bar = value.indexOf('|');
  if (bar < 0) return { name: value, key: value };
  const name = value.slice(0, bar);
  const out: AssetRequest = { name, key: name };
  const options = new Map<string, string>();
  for (const option of value.slice(bar + 1).split('|')) {
    const eq = option.indexOf('=');
    if (eq < 0) {
      return `Invalid asset option '${option}' in '${value}'. Options must be in 'key=value' format (bidx, expression or bands), e.g. '${name}|bidx=1'`;
    }
    const key = option.slice(0, eq);
    const v = option.slice(eq + 1);
    if (key === 'bidx') {
      const parts = v.split(',');
      if (!parts.every((p) => INT.test(p))) {
        return `Error parsing asset '${value}': invalid bidx value '${v}'. Expected comma-separated integers, e.g. 'bidx=1' or 'bidx=1,2,3'`;
      }
      out.indexes = parts.map((p) => Number(p.trim()));
      options.set('indexes', `[${out.indexes.join(',')}]`);
    } else if (key === 'expression') {
      out.expression = v;
      options.set('expression', v);
    } else if (key === 'bands') {
      out.bands = v.split(',');
      options.set('bands', `[${out.bands.map((b) => `'${b}'`).join(',')}]`);
    }
  }
  if (options.size > 0) out.key = `${name}|${[...options].map(([k, v]) => `${k}=${v}`).join('&')}`;
  return out;
}
