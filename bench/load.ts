/** Shared pieces of the HTTP load benchmarks: /proc CPU and memory of the server, and a fixed-concurrency URL loop. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK']).toString());

/** utime + stime of every thread of `pid`, in ms. */
export function procCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK;
}

/** Peak resident set (VmHWM) of `pid`, in MiB. */
export function peakRssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmHWM'))!;
  return Number(line.split(/\s+/)[1]) / 1024;
}

/** Fetches every URL of `queue` with `connections` concurrent loops; returns wall ms and sorted latencies. */
export async function runLoad(queue: readonly string[], connections: number): Promise<{ wallMs: number; latencies: number[] }> {
  const latencies: number[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < queue.length) {
        const u = queue[next++];
        const s = performance.now();
        const r = await fetch(u);
        await r.arrayBuffer();
        latencies.push(performance.now() - s);
      }
    }),
  );
  return { wallMs: performance.now() - t0, latencies: latencies.sort((a, b) => a - b) };
}
