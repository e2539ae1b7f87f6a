/**
 * The quadkey index of a MosaicJSON over WebMercatorQuad (Bing quadkeys: one base-4 digit per
 * zoom, bit x + 2·bit y). Which index entries serve a tile (cogeo-mosaic's `find_quadkeys`):
 * a tile deeper than the index zoom uses its ancestor's entry; a shallower tile uses every
 * descendant at the index zoom, in morecantile's `children` order (top-left, top-right,
 * bottom-right, bottom-left at each level), which decides `first` pixel selection.
 */
export interface QuadTile {
  x: number;
  y: number;
  z: number;
}

export function quadkeyOf(x: number, y: number, z: number): string {
  let out = '';
  for (let i = z; i > 0; i--) {
    const mask = 2 ** (i - 1);
    out += String((Math.floor(x / mask) % 2) + 2 * (Math.floor(y / mask) % 2));
  }
  return out;
}

export function tileOfQuadkey(qk: string): QuadTile {
  let x = 0;
  let y = 0;
  for (const ch of qk) {
    const d = ch.charCodeAt(0) - 48;
    x = x * 2 + (d & 1);
    y = y * 2 + (d >> 1);
  }
  return { x, y, z: qk.length };
}

/** Rank of a quadkey digit in morecantile's children order (TL, TR, BR, BL = digits 0, 1, 3, 2). */
const CHILD_RANK = [0, 1, 3, 2];

function childOrderKey(qk: string): string {
  let out = '';
  for (const ch of qk) out += String(CHILD_RANK[ch.charCodeAt(0) - 48]);
  return out;
}

/**
 * The index quadkeys serving tile (x, y, z), in cogeo-mosaic's order, restricted to the keys the
 * index has (`has`, `keys`): descendants are enumerated when fewer than the index's keys, else the
 * index is scanned for the tile's prefix (so a zoom-0 tile over a deep index stays cheap).
 */
export function quadkeysForTile(tile: QuadTile, quadkeyZoom: number, keys: readonly string[], has: (qk: string) => boolean): string[] {
  if (tile.z >= quadkeyZoom) {
    const shift = 2 ** (tile.z - quadkeyZoom);
    const qk = quadkeyOf(Math.floor(tile.x / shift), Math.floor(tile.y / shift), quadkeyZoom);
    return has(qk) ? [qk] : [];
  }
  const prefix = quadkeyOf(tile.x, tile.y, tile.z);
  const depth = quadkeyZoom - tile.z;
  let found: string[];
  if (4 ** depth <= keys.length) {
    found = [];
    const walk = (qk: string): void => {
      if (qk.length === quadkeyZoom) {
        if (has(qk)) found.push(qk);
        return;
      }
      for (const d of ['0', '1', '3', '2']) walk(qk + d);
    };
    walk(prefix);
    return found;
  }
  found = keys.filter((k) => k.length === quadkeyZoom && k.startsWith(prefix));
  const rank = new Map(found.map((k) => [k, childOrderKey(k)]));
  return found.sort((a, b) => (rank.get(a)! < rank.get(b)! ? -1 : rank.get(a)! > rank.get(b)! ? 1 : 0));
}
