import type { ByteSink, Source } from './source.ts';

/**
 * Reads `length` bytes at `offset` of `source` into `sink`: streamed when the source can
 * (Source.stream), else one `fetch` delivered as a single piece. Resolves with the bytes delivered
 * (fewer than `length` only at the end of the object).
 */
export async function streamRead(source: Source, offset: number, length: number, sink: ByteSink, signal?: AbortSignal): Promise<number> {
  if (source.stream !== undefined) return source.stream(offset, length, sink, signal);
  const bytes = await source.fetch(offset, length, signal);
  sink.restart();
  sink.write(bytes);
  return bytes.length;
}
