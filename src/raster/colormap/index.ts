/** Colormaps: the named set, the `colormap` parameter, application, JSON and legend images. */
export type { ColorMap } from './types.ts';
export { COLORMAP_NAMES, getColormap, isColormapName } from './named.ts';
export { parseColormapParam, parseColor } from './parse.ts';
export { colormapFromEntries } from './from-entries.ts';
export { applyColormap, type ColormapResult } from './apply.ts';
export { colormapToJson, type ColormapJson } from './to-json.ts';
export { legendImage, type LegendOptions } from './legend.ts';
