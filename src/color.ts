/** One RGBA colour, 0..255 each (colormap entries, TIFF palettes). */
export type Rgba = [number, number, number, number];
