/** JSON form of a colormap for `/colorMaps/{id}`: `{"0":[r,g,b,a],…}` or `[[[min,max],[r,g,b,a]],…]`. */
import type { ColorMap } from './types.ts';

export type ColormapJson = Record<string, number[]> | Array<[[number, number], number[]]>;

export function colormapToJson(cmap: ColorMap | Uint8Array): ColormapJson {
  if (cmap instanceof Uint8Array || cmap.kind === 'lut') {
    const table = cmap instanceof Uint8Array ? cmap : cmap.table;
    const out: Record<string, number[]> = {};
    for (let i = 0; i < 256; i++) out[String(i)] = Array.from(table.subarray(i * 4, i * 4 + 4));
    return out;
  }
  if (cmap.kind === 'discrete') {
    const out: Record<string, number[]> = {};
    for (const [k, c] of cmap.entries) out[String(k)] = [...c];
    return out;
  }
  return cmap.entries.map(([[lo, hi], c]): [[number, number], number[]] => [[lo, hi], [...c]]);
}
