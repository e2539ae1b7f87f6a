/**
 * Cross-checks of one image's header fields, made when the file is opened and before anything
 * is allocated per band or per block: a field that contradicts another (SamplesPerPixel against
 * the per-sample arrays, the image size against the block tables, a block bigger than the block
 * limit) is a clear InvalidFormat naming the field, not gigabytes of band arrays later.
 *
 * libtiff (GDAL) refuses the same files: "Incorrect count for BitsPerSample" when
 * SamplesPerPixel exceeds the values given. Short offset tables, which libtiff pads with zeros,
 * are refused here too: with the image size they are the usual lie of a hostile header.
 */
import { Errors } from '../../errors.ts';
import { bytesPerSample } from '../../dtype.ts';

/** The raw fields the checks need (counts as stored in the directory). */
export interface HeaderFields {
  image: number;
  width: number;
  height: number;
  samplesPerPixel: number;
  bitsPerSampleCount: number;
  sampleFormatCount: number;
  extraSamplesCount: number;
  planar: 1 | 2;
  photometric: number | null;
  tiled: boolean;
  blockWidth: number;
  blockHeight: number;
  blocksAcross: number;
  blocksDown: number;
  offsetsCount: number;
  byteCountsCount: number;
  dtype: Parameters<typeof bytesPerSample>[0];
}

const PHOTOMETRIC_YCBCR = 6;

/** Throws InvalidFormat naming the first inconsistent field. */
export function checkHeader(f: HeaderFields, maxBlockBytes: number): void {
  const what = `TIFF image ${f.image}`;
  const spp = f.samplesPerPixel;
  const perSample = (name: string, count: number): void => {
    // libtiff: one value stands for every sample; otherwise one per sample
    if (count !== 0 && count !== 1 && count < spp) {
      throw Errors.invalidFormat(`${what}: ${name} has ${count} values for SamplesPerPixel=${spp}`);
    }
  };
  perSample('BitsPerSample', f.bitsPerSampleCount);
  perSample('SampleFormat', f.sampleFormatCount);
  if (f.extraSamplesCount > spp) {
    throw Errors.invalidFormat(`${what}: ExtraSamples lists ${f.extraSamplesCount} samples, more than SamplesPerPixel=${spp}`);
  }
  if (f.photometric === PHOTOMETRIC_YCBCR && spp < 3) {
    throw Errors.invalidFormat(`${what}: PhotometricInterpretation YCbCr needs 3 samples, SamplesPerPixel is ${spp}`);
  }
  const kind = f.tiled ? 'Tile' : 'Strip';
  const planes = f.planar === 2 ? spp : 1;
  const needed = f.blocksAcross * f.blocksDown * planes;
  const layout = f.tiled
    ? `a ${f.width}×${f.height} image in ${f.blockWidth}×${f.blockHeight} tiles`
    : `a ${f.width}×${f.height} image in strips of ${f.blockHeight} rows`;
  const planeText = planes > 1 ? ` × ${planes} planes (PlanarConfiguration=2, SamplesPerPixel=${spp})` : '';
  if (f.offsetsCount < needed) {
    throw Errors.invalidFormat(`${what}: ${kind}Offsets has ${f.offsetsCount} entries, ${layout}${planeText} needs ${needed}`);
  }
  if (f.byteCountsCount < needed) {
    throw Errors.invalidFormat(`${what}: ${kind}ByteCounts has ${f.byteCountsCount} entries, ${layout}${planeText} needs ${needed}`);
  }
  const samplesPerBlock = f.planar === 1 ? spp : 1;
  const blockBytes = f.blockWidth * Math.min(f.blockHeight, f.tiled ? f.blockHeight : f.height) * samplesPerBlock * bytesPerSample(f.dtype);
  if (blockBytes > maxBlockBytes) {
    const size = f.tiled ? `TileWidth×TileLength ${f.blockWidth}×${f.blockHeight}` : `ImageWidth×RowsPerStrip ${f.blockWidth}×${f.blockHeight}`;
    throw Errors.invalidFormat(
      `${what}: one block (${size}, ${samplesPerBlock} sample(s) of ${bytesPerSample(f.dtype)} bytes) decodes to ${blockBytes} bytes, over the ${maxBlockBytes}-byte limit`,
    );
  }
}
