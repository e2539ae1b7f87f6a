/**
 * bench/workers.ts's per-core side: how fast each core is around a run (bench/cpu-probe.ts pinned
 * to it), which core the event loops ran on, how long they waited for one, and the run-by-run and
 * per-core tables (`BENCH_PIN=1`: one worker pinned to one core with `taskset`, wrk on the other).
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runningCores, threadSched, threadTimes } from './proc-stats.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

export interface Probe {
  computeUs: number;
  inflateUs: number;
  faultUs: number;
}

/** `command args`, or with a core, the same held to that core by `taskset`: the command and arguments to spawn. */
export function onCore(core: number | null, command: string, args: string[]): [string, string[]] {
  return core === null ? [command, args] : ['taskset', ['-c', String(core), command, ...args]];
}

/**
 * bench/cpu-probe.ts once on each core (its fixed work's CPU cost there now), with 4 KiB pages
 * (the mmap threshold of `npm start`, not its huge pages: the fault probe counts 4 KiB faults, as
 * in every recorded run).
 */
export function probeCores(): Probe[] {
  const env = { ...process.env, MALLOC_MMAP_THRESHOLD_: '131072' };
  return Array.from({ length: os.availableParallelism() }, (_, core) => {
    const text = execFileSync(...onCore(core, process.execPath, [path.join(here, 'cpu-probe.ts')]), { env }).toString();
    return JSON.parse(text) as Probe;
  });
}

/** Counts, per thread, the samples that found it running on each core. */
export class Placement {
  readonly counts = new Map<string, number[]>();
  sample(pids: number[]): void {
    for (const [k, core] of runningCores(pids)) {
      const c = this.counts.get(k) ?? [0, 0];
      c[core] = (c[core] ?? 0) + 1;
      this.counts.set(k, c);
    }
  }
  /** The share of the given threads' running samples that were on core 0 (NaN without samples). */
  core0Share(keys: string[]): number {
    let on0 = 0;
    let all = 0;
    for (const k of keys) {
      for (const [core, n] of (this.counts.get(k) ?? []).entries()) {
        all += n;
        if (core === 0) on0 += n;
      }
    }
    return all > 0 ? on0 / all : NaN;
  }
}

/** Between two `threadSched`: the `loops` busiest threads (the event loops), their and the tree's runqueue wait, and the tree's minor faults. */
export function schedDelta(
  before: ReturnType<typeof threadSched>,
  after: ReturnType<typeof threadSched>,
  loops: number,
): { loopKeys: string[]; loopWaitMs: number; treeWaitMs: number; faults: number; loopMigrations: number; loopPreempted: number } {
  const d = [...after.entries()].map(([k, a]) => {
    const b = before.get(k) ?? { runMs: 0, waitMs: 0, faults: 0, migrations: 0, preempted: 0 };
    return {
      k,
      run: a.runMs - b.runMs,
      wait: a.waitMs - b.waitMs,
      faults: a.faults - b.faults,
      migrations: a.migrations - b.migrations,
      preempted: a.preempted - b.preempted,
    };
  });
  const top = [...d].sort((x, y) => y.run - x.run).slice(0, loops);
  return {
    loopKeys: top.map((t) => t.k),
    loopWaitMs: top.reduce((s, t) => s + t.wait, 0),
    treeWaitMs: d.reduce((s, t) => s + t.wait, 0),
    faults: d.reduce((s, t) => s + t.faults, 0),
    loopMigrations: top.reduce((s, t) => s + t.migrations, 0),
    loopPreempted: top.reduce((s, t) => s + t.preempted, 0),
  };
}

/**
 * Holds worker i to core i (`taskset -p`): with threads (one process) the i-th busiest thread of the
 * tree — the event loops after the warm-up — alone (libuv's pool and V8's helpers are the
 * process's, shared); with processes every thread of worker process i (the supervisor stays free).
 */
export function holdEachWorker(pids: number[], threads: boolean, workers: number): void {
  const cores = os.availableParallelism();
  if (threads) {
    const loops = [...threadTimes(pids).values()]
      .filter((t) => t.tid !== t.pid && t.comm === 'node')
      .sort((a, b) => b.ms - a.ms)
      .slice(0, workers);
    loops.forEach((t, i) => execFileSync('taskset', ['-p', '-c', String(i % cores), String(t.tid)], { stdio: 'ignore' }));
  } else {
    pids.slice(1).forEach((pid, i) => execFileSync('taskset', ['-a', '-p', '-c', String(i % cores), String(pid)], { stdio: 'ignore' }));
  }
}

type Row = Record<string, number>;

/** "1p0" → 1 worker, tree pinned to core 0 (wrk on the other core); otherwise null. */
export function pinnedCore(spec: string): number | null {
  const m = /^\d+p(\d)$/.exec(spec);
  return m ? Number(m[1]) : null;
}

/**
 * The tree's CPU per tile in units of the probe's 1 MiB inflate on the cores its event loops ran
 * on (weighted by their share of running samples on each): what a tile costs with the cores'
 * speed of the moment taken out. Steady while the raw figure swings → the swing is the cores'.
 */
export function speedless(r: Row): number {
  const w0 = Number.isFinite(r.loopCore0) ? r.loopCore0 : 0.5;
  return r.cpuMsPerTile / ((w0 * r.probe0Inflate + (1 - w0) * r.probe1Inflate) / 1000);
}

/** Every run on its own line, in the order run: what moves a 1-worker figure shows beside it. */
export function printRuns(runs: Array<{ spec: string; round: number; r: Row }>): void {
  console.log('\nRun by run (not medians): the cores each run got, the machine around it, and what a tile cost:');
  console.log(
    '| round | workers | load | tiles/s | cores: tree / wrk / other processes / idle | steal cores | CPU waiting (PSI some) | ' +
      "CPU ms/tile: tree / event loops | tree CPU per tile ÷ the probe's inflate on the loops' cores | event loops: runqueue wait ms/tile, share of their run on core 0, moves between cores and preemptions per 100 tiles | " +
      'probe core 0 / core 1 (µs): compute, inflate 1 MiB, 1 MiB of faults | minor faults/tile | decodes/tile | full GCs/100 | GC ms/tile |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  const f = (x: number, d = 2): string => (Number.isFinite(x) ? x.toFixed(d) : '—');
  for (const { spec, round, r } of runs) {
    console.log(
      `| ${round + 1} | ${spec} | ${f(r.load, 1)} | ${f(r.tilesPerSec, 0)} | ${f(r.treeCores)} / ${f(r.wrkCores)} / ${f(r.othersCores)} / ${f(r.idleCores)} | ` +
        `${f(r.stealCores)} | ${f(r.psiPct, 0)} % | ${f(r.cpuMsPerTile)} / ${f(r.mainMs)} | ${f(speedless(r))} | ${f(r.loopWaitMs)}, ${f(r.loopCore0 * 100, 0)} %, ${f(r.loopMigrations, 0)}, ${f(r.loopPreempted, 0)} | ` +
        `${f(r.probe0Compute, 0)}, ${f(r.probe0Inflate, 0)}, ${f(r.probe0Fault, 0)} / ${f(r.probe1Compute, 0)}, ${f(r.probe1Inflate, 0)}, ${f(r.probe1Fault, 0)} | ` +
        `${f(r.faultsPerTile, 0)} | ${f(r.decodesPerTile)} | ${f(r.majorGcsPer100)} | ${f(r.gcMs)} |`,
    );
  }
}

/**
 * Per round: 2 workers against 1 worker unpinned (the goal's ratio) and against one worker held to
 * one core (per-core scaling), with tiles/s per core the tree used and the ceilings they give:
 * - unpinned ceiling: the cores the 2-worker tree could have had (2 − wrk − other processes) ÷ the
 *   cores one worker used, at one worker's tiles/s per core;
 * - per core: 2 workers on both cores ÷ one worker held to one core (the mean of the two cores:
 *   they are not equally fast on this VM); 2 = perfect scaling, 1.8 the goal's per-core reading.
 */
export function printPerCore(runs: Array<{ spec: string; round: number; r: Row }>, twoSpec: string): void {
  const rounds = [...new Set(runs.map((x) => x.round))];
  console.log(`\nPer-core scaling, round by round (2 workers = ${twoSpec}; "1p<c>" = one worker's tree held to core c by taskset, wrk on the other core):`);
  console.log(
    '| round | 1 worker: tiles/s, cores, tiles/s per core | 1p0: tiles/s, cores | 1p1: tiles/s, cores | 2 workers: tiles/s, cores (wrk + others) | ' +
      '2 ÷ 1 (goal 1.8) | ceiling from cores: (2 − wrk − others) ÷ 1-worker cores | per core: 2 ÷ mean(1p0, 1p1) (ideal 2) | 2-worker tiles/s per core ÷ 1-worker |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  const f = (x: number | undefined, d = 2): string => (x !== undefined && Number.isFinite(x) ? x.toFixed(d) : '—');
  for (const round of rounds) {
    const get = (s: string): Row | undefined => runs.find((x) => x.round === round && x.spec === s)?.r;
    const one = get('1');
    const p0 = get('1p0');
    const p1 = get('1p1');
    const two = get(twoSpec);
    const perCore = (r: Row | undefined): number => (r ? r.tilesPerSec / r.treeCores : NaN);
    const pinnedMean = ((p0?.tilesPerSec ?? NaN) + (p1?.tilesPerSec ?? NaN)) / 2;
    const ceiling = one && two ? (2 - two.wrkCores - two.othersCores) / one.treeCores : NaN;
    console.log(
      `| ${round + 1} | ${f(one?.tilesPerSec, 0)}, ${f(one?.treeCores)}, ${f(perCore(one), 0)} | ${f(p0?.tilesPerSec, 0)}, ${f(p0?.treeCores)} | ` +
        `${f(p1?.tilesPerSec, 0)}, ${f(p1?.treeCores)} | ${f(two?.tilesPerSec, 0)}, ${f(two?.treeCores)} (${f(two?.wrkCores)} + ${f(two?.othersCores)}) | ` +
        `${f(one && two ? two.tilesPerSec / one.tilesPerSec : NaN)} | ${f(ceiling)} | ${f(two ? two.tilesPerSec / pinnedMean : NaN)} | ` +
        `${f(one && two ? perCore(two) / perCore(one) : NaN)} |`,
    );
  }
}
