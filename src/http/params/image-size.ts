/** Output size parameters of previews (max_size 1024) and parts/features/POST statistics (no default). */
import { P } from '../validation/params.ts';

export function previewSizeParams(maxSide: number) {
  return {
    max_size: P.int().ge(0).le(maxSide).default(1024).describe('Maximum image size (longest side) to read onto; 0 = native size.'),
    height: P.int().gt(0).le(maxSide).describe('Force output image height.'),
    width: P.int().gt(0).le(maxSide).describe('Force output image width.'),
  };
}

export function partSizeParams(maxSide: number) {
  return {
    max_size: P.int().ge(0).le(maxSide).describe('Maximum image size (longest side); default: native resolution.'),
    height: P.int().gt(0).le(maxSide).describe('Force output image height.'),
    width: P.int().gt(0).le(maxSide).describe('Force output image width.'),
  };
}
