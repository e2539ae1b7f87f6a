/** Output size parameters of previews (max_size 1024) and parts/features/POST statistics (no default). */
import { Problems } from '../validation/issues.ts';
import { P } from '../validation/params.ts';

/** Largest width × height of an output image (8192 × 8192), whatever the sides' own limit. */
export const MAX_OUTPUT_PIXELS = 8192 * 8192;

const areaRule = () =>
  P.rule<{ width: number; height: number }>(
    ['width', 'height'],
    (v) =>
      v.width * v.height <= MAX_OUTPUT_PIXELS
        ? undefined
        : { key: 'height', problem: Problems.order(`width × height must be at most ${MAX_OUTPUT_PIXELS} pixels`) },
    `width × height must be at most ${MAX_OUTPUT_PIXELS} pixels.`,
  );

export function previewSizeParams(maxSide: number) {
  return {
    max_size: P.int().ge(0).le(maxSide).default(1024).describe('Maximum image size (longest side) to read onto; 0 = native size.'),
    height: P.int().gt(0).le(maxSide).describe('Force output image height.'),
    width: P.int().gt(0).le(maxSide).describe('Force output image width.'),
    _area: areaRule(),
  };
}

export function partSizeParams(maxSide: number) {
  return {
    max_size: P.int().ge(0).le(maxSide).describe('Maximum image size (longest side); default: native resolution.'),
    height: P.int().gt(0).le(maxSide).describe('Force output image height.'),
    width: P.int().gt(0).le(maxSide).describe('Force output image width.'),
    _area: areaRule(),
  };
}

interface SizeValues {
  max_size?: number;
  width?: number;
  height?: number;
}

/** Preview rule (rio-tiler preview): width or height given → max_size is ignored. */
export function previewSize(p: SizeValues): { maxSize?: number; width?: number; height?: number } {
  return { maxSize: p.width || p.height ? undefined : p.max_size, width: p.width, height: p.height };
}

/** Part/feature rule (rio-tiler part): max_size applies unless both width and height are given. */
export function partSize(p: SizeValues): { maxSize?: number; width?: number; height?: number } {
  return { maxSize: p.width && p.height ? undefined : p.max_size, width: p.width, height: p.height };
}
