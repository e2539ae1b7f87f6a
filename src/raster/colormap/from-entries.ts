/** A value → colour map (a `colormap` dict or a dataset palette) as a ColorMap. */
import type { Rgba } from '../image-data.ts';
import type { ColorMap } from './types.ts';

/** Per entries Map: dataset palettes are built once per dataset and reused by every tile. */
const BY_ENTRIES = new WeakMap<ReadonlyMap<number, Rgba>, ColorMap>();

/**
 * A 256-entry lookup table when the keys are exactly the integers 0..255, else a discrete map.
 * The result is cached per Map object: `entries` must not be modified afterwards.
 */
export function colormapFromEntries(entries: Map<number, Rgba>): ColorMap {
  let cmap = BY_ENTRIES.get(entries);
  if (cmap === undefined) {
    cmap = build(entries);
    BY_ENTRIES.set(entries, cmap);
  }
  return cmap;
}

function build(entries: Map<number, Rgba>): ColorMap {
  if (entries.size !== 256) return { kind: 'discrete', entries };
  for (const k of entries.keys()) if (!(Number.isInteger(k) && k >= 0 && k <= 255)) return { kind: 'discrete', entries };
  const table = new Uint8Array(1024);
  for (const [k, c] of entries) table.set(c, k * 4);
  return { kind: 'lut', table };
}
