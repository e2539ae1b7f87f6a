/**
 * numpy `.npy` format version 1.0 (what `numpy.save` writes): magic, little-endian header
 * length, a Python-dict header padded with spaces to a multiple of 64 bytes and ending in a
 * newline, then the C-order little-endian data of shape (bands, height, width).
 * Written by hand: it is 20 lines and no maintained npm package writes it without extras.
 */
import { endianness } from 'node:os';
import { Errors } from '../../errors.ts';
import { bytesPerSample, type DType, type TypedArray } from '../../dtype.ts';
import { pooledBody } from '../../util/pooled-body.ts';
import { chargeRequest } from '../../util/request-budget.ts';

const DESCR: Record<DType, string> = {
  uint8: '|u1',
  int8: '|i1',
  uint16: '<u2',
  int16: '<i2',
  uint32: '<u4',
  int32: '<i4',
  float32: '<f4',
  float64: '<f8',
};

export function encodeNpy(bands: readonly TypedArray[], dtype: DType, height: number, width: number): Buffer {
  if (endianness() !== 'LE') throw Errors.notImplemented('.npy output needs a little-endian host');
  const dict = `{'descr': '${DESCR[dtype]}', 'fortran_order': False, 'shape': (${bands.length}, ${height}, ${width}), }`;
  const unpadded = 10 + dict.length + 1;
  const headerLen = dict.length + 1 + ((64 - (unpadded % 64)) % 64);
  const bandBytes = width * height * bytesPerSample(dtype);
  chargeRequest(bands.length * bandBytes, `An .npy of ${bands.length} band(s) of ${width}×${height} ${dtype}`);
  // Every byte is written below (header, its padding, the bands): a recycled buffer's stale bytes never show.
  const out = pooledBody(10 + headerLen + bands.length * bandBytes);
  out.write('\x93NUMPY', 0, 'latin1');
  out[6] = 1;
  out[7] = 0;
  out.writeUInt16LE(headerLen, 8);
  out.write(dict.padEnd(headerLen - 1, ' ') + '\n', 10, 'latin1');
  bands.forEach((b, k) => out.set(new Uint8Array(b.buffer, b.byteOffset, bandBytes), 10 + headerLen + k * bandBytes));
  return out;
}
