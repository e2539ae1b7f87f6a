/**
 * The 211 named colormaps, packed in data/colormaps.bin (1024 RGBA bytes each, in
 * COLORMAP_NAMES order) and loaded once, on first use.
 */
import { readFileSync } from 'node:fs';
import { Errors } from '../../errors.ts';
import { COLORMAP_NAMES } from './colormap-names.ts';

export { COLORMAP_NAMES };

const INDEX = new Map<string, number>(COLORMAP_NAMES.map((n, i) => [n, i]));
let packed: Uint8Array | null = null;

function table(): Uint8Array {
  if (!packed) {
    packed = new Uint8Array(readFileSync(new URL('./data/colormaps.bin', import.meta.url)));
    if (packed.length !== COLORMAP_NAMES.length * 1024) throw Errors.internal('colormaps.bin does not match COLORMAP_NAMES');
  }
  return packed;
}

export const isColormapName = (name: string): boolean => INDEX.has(name);

/** 256×4 RGBA lookup table of a named colormap (a fresh copy: callers may modify it). */
export function getColormap(name: string): Uint8Array {
  const k = INDEX.get(name);
  if (k === undefined) throw Errors.badRequest(`Invalid colormap name: ${name}`, { context: { parameter: 'colormap_name' } });
  return table().slice(k * 1024, (k + 1) * 1024);
}
