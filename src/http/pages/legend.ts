/** A colormap legend image with value labels beside it (HTML), for `rescale`d colormaps. */
import type { LegendTick } from '../../raster/colormap/legend-ticks.ts';
import { shortNumber } from '../../util/short-number.ts';
import { escapeHtml } from './html.ts';

/**
 * `src`: the legend image (a data: URL or a /colorMaps URL); `length`: its length along the ramp
 * in CSS pixels. Each label is a `<span class="tick" data-value data-position>` centred on its
 * place along the ramp (vertical: to the right of the image; horizontal: below it).
 */
export function labelledLegend(src: string, alt: string, ticks: readonly LegendTick[], orientation: 'vertical' | 'horizontal', length: number): string {
  const vertical = orientation === 'vertical';
  const labels = ticks
    .map((t) => {
      const at = `${(t.position * length).toFixed(2)}px`;
      const style = vertical ? `left:100%;top:${at};transform:translateY(-50%)` : `top:100%;left:${at};transform:translateX(-50%)`;
      return `<span class="tick" data-value="${t.value}" data-position="${t.position}" style="position:absolute;${style};padding:0 4px;font-size:12px;white-space:nowrap">${escapeHtml(shortNumber(t.value))}</span>`;
    })
    .join('');
  const box = vertical ? `margin-right:5em;height:${length}px` : `margin-bottom:1.5em;width:${length}px`;
  return `<div class="legend" style="position:relative;display:inline-block;${box}"><img alt="${escapeHtml(alt)}" src="${escapeHtml(src)}" style="display:block;${vertical ? 'height' : 'width'}:${length}px">${labels}</div>`;
}
