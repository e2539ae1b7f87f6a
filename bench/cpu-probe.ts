/**
 * A fixed piece of work timed in CPU (this thread's utime+stime), for bench/workers.ts: how fast the
 * core it runs on is right now. The same work costs more CPU when the host is busier (its caches,
 * memory bandwidth, a shared physical core) even though the guest sees no steal and a fixed clock,
 * so a tile's CPU cost moving between runs shows here too if that is its cause.
 *
 *   taskset -c 0 node bench/cpu-probe.ts     # prints {"computeUs":…,"inflateUs":…,"faultUs":…}
 *
 * - computeUs: a numeric loop over a 256 KiB Float64Array (L2-resident), per pass;
 * - inflateUs: zlib inflate of a 1 MiB raster-like block (what a tile's block decode does), per block;
 * - faultUs: a fresh 16 MiB buffer written once (every page a first-touch fault), per MiB.
 * Each is the median of 5 repetitions (~40 ms each). Plain TypeScript node strips itself (no tsx: starts in ~40 ms).
 */
import { deflateSync, inflateSync } from 'node:zlib';

/** The process's CPU so far, µs (getrusage: exact for the running thread; its idle helper threads add ~0). */
const cpuUs = (): number => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function compute(): number {
  const a = new Float64Array(32768);
  for (let i = 0; i < a.length; i++) a[i] = i * 0.5;
  const t0 = cpuUs();
  let s = 0;
  for (let pass = 0; pass < 1000; pass++) for (let i = 0; i < a.length; i++) s += a[i] * a[(i * 7) & 32767];
  if (s === 42) console.log(s); // keep the loop
  return (cpuUs() - t0) / 1000;
}

// A raster-like block: a smooth uint16 surface with noise in the low bits (deflates ~3:1).
const raw = new Uint16Array(512 * 1024);
let seed = 12345;
for (let i = 0; i < raw.length; i++) {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
  raw[i] = (((i % 1024) * 3 + (i >> 10) * 2) & 0xfff0) | (seed >>> 28);
}
const deflated = deflateSync(raw);

function inflate(): number {
  const t0 = cpuUs();
  for (let i = 0; i < 4; i++) inflateSync(deflated);
  return (cpuUs() - t0) / 4;
}

function fault(): number {
  const t0 = cpuUs();
  const b = Buffer.allocUnsafeSlow(16 << 20);
  for (let i = 0; i < b.length; i += 4096) b[i] = 1;
  return (cpuUs() - t0) / 16;
}

compute(); // JIT
inflate();
const reps = (f: () => number): number => median(Array.from({ length: 5 }, f));
console.log(JSON.stringify({ computeUs: reps(compute), inflateUs: reps(inflate), faultUs: reps(fault) }));
