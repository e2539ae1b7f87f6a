/** Colormap shapes (rio-tiler's three kinds) shared by parsing, application and JSON output. */
import type { Rgba } from '../image-data.ts';

export type ColorMap =
  /** 256 entries × RGBA (1024 bytes): value v (cast to uint8) → entry v. */
  | { kind: 'lut'; table: Uint8Array }
  /** value == key → colour; any other value → transparent (0,0,0,0). */
  | { kind: 'discrete'; entries: Map<number, Rgba> }
  /** min ≤ value < max → colour, later entries win on overlap; no match → transparent. */
  | { kind: 'intervals'; entries: Array<[[number, number], Rgba]> };
