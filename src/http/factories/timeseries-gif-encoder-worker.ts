/**
 * Worker-thread entry of the GIF series' encoder thread (timeseries-gif-encoder.ts): only the LZW
 * encoder (gif-lzw.ts) and the task loop, no Services, caches or readers. A task is one frame's
 * palette indices and a buffer for its image data, both moved here and moved back with the
 * length written. The warm-up encodes a few synthetic frames so the first series finds LZW
 * optimised.
 */
import { serveTasks } from '../../granule/timeseries/thread-pool.ts';
import { lzwImageData, lzwMaxBytes } from '../../raster/render/gif-lzw.ts';
import { isEncodeTask, type EncodeAnswer } from './timeseries-gif-encoder.ts';

function warmup(): void {
  // (serveTasks detached one ArrayBuffer before this task, util/detach-protector.ts: otherwise the
  // first real frame's answer did, and LZW was compiled again during a new process's first series)
  const n = 256 * 256;
  const index = new Uint8Array(n);
  const out = new Uint8Array(lzwMaxBytes(n));
  // Short frames first, so that the code after the pixel loop has type feedback (V8 allocates a
  // function's feedback only after several calls) before V8 compiles the loop on-stack: compiled
  // without it, every later frame left the optimised loop at its end ("insufficient type
  // feedback" in --trace-deopt; ~1 ms per 512² frame) and LZW was compiled whole only during the
  // first series. With 16 calls of 64 pixels it is compiled whole before the first task.
  for (let k = 0; k < 16; k++) lzwImageData(index.subarray(0, 64), 8, out, 0);
  for (let k = 0; k < 3; k++) {
    let s = k + 1;
    for (let i = 0; i < n; i++) {
      s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff;
      index[i] = ((i >> 8) + (s >> 28)) & 0xff; // a ramp with noise, as a rendered frame
    }
    lzwImageData(index, 8, out, 0);
  }
}

serveTasks(async (task) => {
  if (!isEncodeTask(task)) {
    warmup();
    return { value: null };
  }
  const end = lzwImageData(new Uint8Array(task.index, 0, task.pixels), 8, new Uint8Array(task.out), 0);
  const answer: EncodeAnswer = { index: task.index, out: task.out, end };
  return { value: answer, transfer: [task.index, task.out] };
});
