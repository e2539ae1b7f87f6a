/**
 * Cloud-Optimized GeoTIFF rules over a file's layout, as GDAL's validate_cloud_optimized_geotiff.py
 * and rio-cogeo's `cog_validate` state them (messages kept as rio-cogeo words them, so scripts
 * matching on them keep working).
 */
import type { CogImage, CogLayout } from './cog-layout.ts';

export interface CogVerdict {
  errors: string[];
  warnings: string[];
  /** Full resolution, then internal overviews in chain order (masks left out). */
  main: CogImage;
  overviews: CogImage[];
}

/** GDAL: a "not tiled" image has single-strip-wide blocks; wider than this it must be tiled. */
const MAX_UNTILED_WIDTH = 1024;

export function checkCog(layout: CogLayout, externalOverviews: number): CogVerdict {
  const errors: string[] = [];
  const warnings: string[] = [];
  const images = layout.images.filter((im) => !im.mask);
  const main = images[0]!;
  const overviews = images.slice(1).filter((im) => im.reduced || im.width < main.width);

  if (externalOverviews > 0 && overviews.length === 0) errors.push('Overviews found in external .ovr file. They should be internal');
  if (main.width > 512 || main.height > 512) {
    if (!main.tiled && main.blockWidth === main.width && main.blockWidth > MAX_UNTILED_WIDTH) {
      errors.push('The file is greater than 512xH or 512xW, but is not tiled');
    }
    if (overviews.length === 0 && externalOverviews === 0) {
      warnings.push('The file is greater than 512xH or 512xW, it is recommended to include internal overviews');
    }
  }
  if (main.ifdOffset !== layout.expectedMainIfdOffset) {
    errors.push(`The offset of the main IFD should be ${layout.expectedMainIfdOffset}. It is ${main.ifdOffset} instead`);
  }

  overviews.forEach((ovr, i) => {
    const larger = i === 0 ? main : overviews[i - 1]!;
    if (ovr.width > larger.width || ovr.height > larger.height) {
      errors.push(
        i === 0 ? 'First overview has larger dimension than main band' : `Overview of index ${i} has larger dimension than overview of index ${i - 1}`,
      );
    }
    if (!ovr.tiled && ovr.blockWidth === ovr.width && ovr.blockWidth > MAX_UNTILED_WIDTH) errors.push(`Overview of index ${i} is not tiled`);
    const previous = i === 0 ? main : overviews[i - 1]!;
    if (ovr.ifdOffset < previous.ifdOffset) {
      errors.push(
        i === 0
          ? `The offset of the IFD for overview of index ${i} is ${ovr.ifdOffset}, whereas it should be greater than the one of the main image, which is at byte ${main.ifdOffset}`
          : `The offset of the IFD for overview of index ${i} is ${ovr.ifdOffset}, whereas it should be greater than the one of index ${i - 1}, which is at byte ${previous.ifdOffset}`,
      );
    }
  });

  // Data: the smallest overview's blocks first, the full resolution last, all after the IFDs.
  const chain = [main, ...overviews];
  const last = chain[chain.length - 1]!;
  if (last.firstBlockOffset !== 0 && last.firstBlockOffset < last.ifdOffset) {
    errors.push(
      overviews.length > 0
        ? 'The offset of the first block of the smallest overview should be after its IFD'
        : 'The offset of the first block of the image should be after its IFD',
    );
  }
  for (let i = chain.length - 2; i >= 1; i--) {
    if (chain[i]!.firstBlockOffset !== 0 && chain[i]!.firstBlockOffset < chain[i + 1]!.firstBlockOffset) {
      errors.push(`The offset of the first block of overview of index ${i - 1} should be after the one of the overview of index ${i}`);
    }
  }
  if (chain.length >= 2 && main.firstBlockOffset !== 0 && main.firstBlockOffset < chain[1]!.firstBlockOffset) {
    errors.push(`The offset of the first block of the main resolution image should be after the one of the overview of index ${overviews.length - 1}`);
  }

  const ghost = layout.ghostHeader;
  if (ghost?.['KNOWN_INCOMPATIBLE_EDITION'] === 'YES') errors.push('KNOWN_INCOMPATIBLE_EDITION=YES is declared in the file');
  if (ghost && ghost['LAYOUT'] !== undefined && ghost['LAYOUT'] !== 'IFDS_BEFORE_DATA') warnings.push(`The ghost header declares LAYOUT=${ghost['LAYOUT']}`);
  return { errors, warnings, main, overviews };
}
