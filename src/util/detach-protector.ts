/**
 * The first ArrayBuffer detached in an isolate (a transfer to or from a thread, a fetch() reading
 * its body) invalidates V8's array-buffer-detaching protector, which throws away every function
 * compiled with typed-array accesses ("code dependencies" in --trace-deopt); they run in the
 * interpreter until V8 compiles them again on its helper threads. Seen: a new process's first tile
 * (coordSpan, nearest, maskBand, segmentAt), a time-series thread's first series, the GIF encoder
 * thread's LZW in the first series (BENCHMARKS.md). Every isolate that warms code up calls this
 * first, so that the warm-up's compiled code survives the first real detach.
 */
export function detachOneArrayBuffer(): void {
  structuredClone(new ArrayBuffer(8), { transfer: [new ArrayBuffer(8)] });
}
