/** Grid pixel coordinates → source pixel coordinates through a CRS transformer (in place). */
import type { GeoTransform } from '../../geo/affine.ts';
import type { Transformer } from '../../geo/transform.ts';
import type { PixelTransform } from './approx-row.ts';

/**
 * @param gridGt geotransform of the destination grid (in the transformer's source CRS)
 * @param invSourceGt inverse geotransform of the source raster level (georeferenced → pixel)
 */
export function gridToSource(gridGt: GeoTransform, invSourceGt: GeoTransform, transformer: Transformer): PixelTransform {
  const g = gridGt;
  const inv = invSourceGt;
  return (xs: Float64Array, ys: Float64Array): void => {
    for (let i = 0; i < xs.length; i++) {
      const px = xs[i];
      const py = ys[i];
      xs[i] = g[0] + px * g[1] + py * g[2];
      ys[i] = g[3] + px * g[4] + py * g[5];
    }
    transformer.forward(xs, ys);
    for (let i = 0; i < xs.length; i++) {
      const gx = xs[i];
      const gy = ys[i];
      xs[i] = inv[0] + gx * inv[1] + gy * inv[2];
      ys[i] = inv[3] + gx * inv[4] + gy * inv[5];
    }
  };
}
