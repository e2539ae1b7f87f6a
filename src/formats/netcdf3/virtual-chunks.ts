/**
 * A chunk grid for contiguous row-major storage: trailing axes whole, one axis split so a chunk
 * holds at most ~`targetBytes`, leading axes 1. Every such chunk is one contiguous byte run, so
 * reading a window never reads a whole large variable. (NetCDF-3 stores everything this way.)
 */
export const VIRTUAL_CHUNK_BYTES = 1 << 20;

/**
 * `shape` of elements of `elementSize` bytes; `fixedLeading` leading axes always get chunk 1
 * (the record axis of a NetCDF-3 record variable, whose records are not adjacent).
 */
export function virtualChunkShape(shape: readonly number[], elementSize: number, fixedLeading = 0, targetBytes = VIRTUAL_CHUNK_BYTES): number[] {
  const chunk = shape.map(() => 1);
  let inner = elementSize;
  let j = shape.length;
  while (j > fixedLeading && inner * Math.max(1, shape[j - 1]!) <= targetBytes) {
    j--;
    chunk[j] = Math.max(1, shape[j]!);
    inner *= chunk[j]!;
  }
  if (j > fixedLeading) chunk[j - 1] = Math.max(1, Math.min(shape[j - 1]!, Math.floor(targetBytes / inner)));
  return chunk;
}
