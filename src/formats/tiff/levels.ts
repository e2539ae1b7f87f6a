/**
 * Which image and which mask serve each level, as GDAL's GTiff driver chooses them: internal
 * overviews (reduced-resolution IFDs, NewSubfileType bit 1), else the images of `<file>.ovr`;
 * internal masks (NewSubfileType 4 / 5 with Photometric=Mask), else `<file>.msk` and
 * `<file>.msk.ovr`; masks are matched to levels by size.
 */
import { Photometric } from './band-meta.ts';
import type { IfdLayout } from './ifd-layout.ts';
import { Subfile } from './ifd-layout.ts';
import type { TiffFile } from './tiff-file.ts';

/** One image of one opened file. */
export interface Plane {
  file: TiffFile;
  layout: IfdLayout;
}

export interface LevelSource {
  image: Plane;
  mask: Plane | null;
}

export interface LevelFiles {
  main: TiffFile;
  base: IfdLayout;
  ovr: TiffFile | null;
  msk: TiffFile | null;
  mskOvr: TiffFile | null;
}

/** [0] = full resolution, then overviews from the largest down; `warnings` gets skipped images. */
export function assembleLevels(files: LevelFiles, warnings: string[]): LevelSource[] {
  const { main, base, ovr, msk, mskOvr } = files;
  const isInternalMask = (l: IfdLayout): boolean =>
    (l.subfileType & Subfile.Mask) !== 0 && l.photometric === Photometric.Mask && l.samplesPerPixel === 1 && (l.bitsPerSample === 1 || l.bitsPerSample === 8);
  const compatible = (l: IfdLayout): boolean =>
    l.samplesPerPixel === base.samplesPerPixel &&
    l.bitsPerSample === base.bitsPerSample &&
    l.sampleFormat === base.sampleFormat &&
    l.width <= base.width &&
    l.height <= base.height &&
    (l.width < base.width || l.height < base.height);
  const planes = (file: TiffFile | null): Plane[] =>
    file === null ? [] : file.layouts.flatMap((layout) => (layout instanceof Error ? [] : [{ file, layout }]));

  let overviews = planes(main).filter(
    (p) => p.layout !== base && (p.layout.subfileType & Subfile.Reduced) !== 0 && (p.layout.subfileType & Subfile.Mask) === 0 && compatible(p.layout),
  );
  if (overviews.length === 0 && ovr !== null) {
    overviews = planes(ovr).filter((p) => (p.layout.subfileType & Subfile.Mask) === 0 && compatible(p.layout));
  }
  for (const p of planes(main)) {
    // a reduced-resolution image larger than the full one (a corrupt or hostile size) is no overview
    const l = p.layout;
    if (l !== base && (l.subfileType & (Subfile.Reduced | Subfile.Mask)) === Subfile.Reduced && (l.width > base.width || l.height > base.height)) {
      warnings.push(`Ignored overview image ${l.index}: its size ${l.width}×${l.height} exceeds the full resolution ${base.width}×${base.height}`);
    }
  }
  overviews.sort((a, b) => b.layout.width - a.layout.width || b.layout.height - a.layout.height);
  // sizes must shrink in both directions from one level to the next
  overviews = overviews.filter((p, i) => i === 0 || p.layout.height <= overviews[i - 1].layout.height);
  const skipped = main.layouts.filter((l) => l instanceof Error);
  for (const err of skipped) warnings.push(`Ignored an unreadable image: ${(err as Error).message}`);

  const internalMasks = [...planes(main), ...planes(ovr)].filter((p) => isInternalMask(p.layout));
  const hasInternalFullMask = internalMasks.some((p) => p.layout.width === base.width && p.layout.height === base.height);
  const maskCandidates = hasInternalFullMask ? internalMasks : [...internalMasks, ...planes(msk), ...planes(mskOvr)];
  const maskFor = (w: number, h: number): Plane | null => maskCandidates.find((p) => p.layout.width === w && p.layout.height === h) ?? null;
  const levelSources: LevelSource[] = [{ image: { file: main, layout: base }, mask: maskFor(base.width, base.height) }];
  for (const o of overviews) {
    // Overview masks only make sense when the full resolution has one.
    levelSources.push({ image: o, mask: levelSources[0].mask !== null ? maskFor(o.layout.width, o.layout.height) : null });
  }
  return levelSources;
}
