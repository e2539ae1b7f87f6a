/**
 * /proc figures of a server's process tree for bench/workers.ts: the tree's pids, its memory three
 * ways (Σ RSS, Σ PSS, private + shared counted once) and its CPU split by kind of thread.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { CLK_TCK, procCpuMs } from './load.ts';

/** The process and its descendants. */
export function tree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(e)]);
    } catch {
      // gone
    }
  }
  const all = [pid];
  for (let i = 0; i < all.length; i++) all.push(...(children.get(all[i]) ?? []));
  return all;
}

interface Memory {
  rss: number;
  pss: number;
  private: number;
  shared: number;
}

/** A process's memory from smaps_rollup, MiB (zeros once it is gone). */
function memory(pid: number): Memory {
  const m: Memory = { rss: 0, pss: 0, private: 0, shared: 0 };
  try {
    for (const line of readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8').split('\n')) {
      const [key, value] = line.split(/:\s+/);
      const mb = Number.parseInt(value ?? '', 10) / 1024;
      if (key === 'Rss') m.rss = mb;
      else if (key === 'Pss') m.pss = mb;
      else if (key === 'Private_Clean' || key === 'Private_Dirty') m.private += mb;
      else if (key === 'Shared_Clean' || key === 'Shared_Dirty') m.shared += mb;
    }
  } catch {
    // gone
  }
  return m;
}

/** The tree's memory now: sums of RSS and PSS, and private pages plus the shared ones counted once. */
export function treeMemory(pids: number[]): { rss: number; pss: number; once: number } {
  const ms = pids.map(memory);
  const sum = (f: (m: Memory) => number): number => ms.reduce((a, m) => a + f(m), 0);
  return { rss: sum((m) => m.rss), pss: sum((m) => m.pss), once: sum((m) => m.private) + Math.max(0, ...ms.map((m) => m.shared)) };
}

export const treeCpuMs = (pids: number[]): number => pids.reduce((s, p) => s + procCpuMs(p), 0);

/** Where a tree's CPU goes: the supervisor, and per worker its event-loop thread, libuv's pool, V8's helpers (GC, compiler), the rest. */
export type CpuSplit = Record<'primary' | 'main' | 'pool' | 'v8' | 'other', number>;

interface ThreadTime {
  pid: number;
  tid: number;
  comm: string;
  ms: number;
}

/** Calls `visit` for every live thread of the tree with its /proc directory; threads (or processes) gone meanwhile are skipped. */
function forEachThread(pids: number[], visit: (pid: number, tid: string, dir: string) => void): void {
  for (const pid of pids) {
    let tids: string[];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      try {
        visit(pid, tid, `/proc/${pid}/task/${tid}`);
      } catch {
        // gone
      }
    }
  }
}

/** CPU ms so far of every live thread of the tree, by `pid/tid`. */
export function threadTimes(pids: number[]): Map<string, ThreadTime> {
  const times = new Map<string, ThreadTime>();
  const tick = 1000 / CLK_TCK;
  forEachThread(pids, (pid, tid, dir) => {
    const stat = readFileSync(`${dir}/stat`, 'utf8');
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    times.set(`${pid}/${tid}`, { pid, tid: Number(tid), comm, ms: (Number(f[11]) + Number(f[12])) * tick });
  });
  return times;
}

/**
 * The CPU between two `threadTimes` by kind (a thread's kind from its name; a process's main
 * thread's id is the process's). `primary`: the supervisor process (cluster), or with
 * `servingThreads` > 0 the process's own main thread (worker threads: the main thread supervises).
 * Worker threads and V8's helpers are both named `node`: the `servingThreads` busiest of those are
 * taken as the serving threads' event loops.
 */
export function splitCpu(before: Map<string, ThreadTime>, after: Map<string, ThreadTime>, primary: number, servingThreads = 0): CpuSplit & { loops: number[] } {
  const split: CpuSplit & { loops: number[] } = { primary: 0, main: 0, pool: 0, v8: 0, other: 0, loops: [] };
  const deltas = [...after.entries()].map(([k, t]) => ({ ...t, d: t.ms - (before.get(k)?.ms ?? 0) }));
  const serving = new Set(
    deltas
      .filter((t) => servingThreads > 0 && t.tid !== t.pid && t.comm === 'node')
      .sort((a, b) => b.d - a.d)
      .slice(0, servingThreads)
      .map((t) => t.tid),
  );
  for (const t of deltas) {
    const kind: keyof CpuSplit =
      servingThreads > 0 && t.tid === t.pid
        ? 'primary'
        : t.pid === primary
          ? 'primary'
          : t.tid === t.pid || serving.has(t.tid)
            ? 'main'
            : t.comm === 'libuv-worker'
              ? 'pool'
              : t.comm === 'node' || t.comm.startsWith('DelayedTask')
                ? 'v8'
                : 'other';
    split[kind] += t.d;
    if (kind === 'main') split.loops.push(t.d);
  }
  return split;
}

/** The machine's CPU so far from /proc/stat: busy and idle (idle + iowait) ms summed over every core. */
export function machineCpuMs(): { busy: number; idle: number } {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].split(/\s+/).slice(1).map(Number);
  const tick = 1000 / CLK_TCK;
  const idle = (f[3] + f[4]) * tick;
  // user nice system idle iowait irq softirq steal (guest time is already in user)
  const busy = (f[0] + f[1] + f[2] + f[5] + f[6] + f[7]) * tick;
  return { busy, idle };
}

/** Per core from /proc/stat: busy and idle ms so far (same columns as `machineCpuMs`), index = core number. */
export function coreCpuMs(): Array<{ busy: number; idle: number }> {
  const tick = 1000 / CLK_TCK;
  return readFileSync('/proc/stat', 'utf8')
    .split('\n')
    .filter((l) => /^cpu\d+ /.test(l))
    .map((l) => {
      const f = l.split(/\s+/).slice(1).map(Number);
      return { busy: (f[0] + f[1] + f[2] + f[5] + f[6] + f[7]) * tick, idle: (f[3] + f[4]) * tick };
    });
}

/** The machine's steal time so far, ms (/proc/stat's 8th column: the hypervisor ran someone else while a core had work; 0 where it is not reported). */
export function machineStealMs(): number {
  return Number(readFileSync('/proc/stat', 'utf8').split('\n')[0].split(/\s+/)[8]) * (1000 / CLK_TCK);
}

/** PSI: µs so far during which at least one runnable task waited for a core (/proc/pressure/cpu "some total"); NaN without PSI. */
export function cpuPressureUs(): number {
  try {
    return Number(/^some .*total=(\d+)/m.exec(readFileSync('/proc/pressure/cpu', 'utf8'))?.[1] ?? NaN);
  } catch {
    return NaN;
  }
}

/** A thread's scheduler figures so far: ms run, ms waited runnable for a core, minor faults, moves between cores, preemptions. */
export interface Sched {
  runMs: number;
  waitMs: number;
  faults: number;
  migrations: number;
  preempted: number;
}

/** Per live thread of the tree (`pid/tid`): its `Sched` (schedstat, stat, and sched where the kernel has it, else 0). */
export function threadSched(pids: number[]): Map<string, Sched> {
  const out = new Map<string, Sched>();
  forEachThread(pids, (pid, tid, dir) => {
    const [run, wait] = readFileSync(`${dir}/schedstat`, 'utf8').split(' ').map(Number);
    const stat = readFileSync(`${dir}/stat`, 'utf8');
    const faults = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[7]);
    let sched = '';
    try {
      sched = readFileSync(`${dir}/sched`, 'utf8');
    } catch {
      // no CONFIG_SCHED_DEBUG
    }
    const field = (name: string): number => Number(new RegExp(`^${name}\\s*:\\s*(\\d+)`, 'm').exec(sched)?.[1] ?? 0);
    out.set(`${pid}/${tid}`, {
      runMs: run / 1e6,
      waitMs: wait / 1e6,
      faults,
      migrations: field('se\\.nr_migrations'),
      preempted: field('nr_involuntary_switches'),
    });
  });
  return out;
}

/** The core each running (state R) thread of the tree is on now, by `pid/tid` (/proc/…/stat's `processor`). */
export function runningCores(pids: number[]): Map<string, number> {
  const out = new Map<string, number>();
  forEachThread(pids, (pid, tid, dir) => {
    const stat = readFileSync(`${dir}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (f[0] === 'R') out.set(`${pid}/${tid}`, Number(f[36]));
  });
  return out;
}
