/**
 * Child of test/cli/v8-heap-growth.test.ts: applies RASTILE_V8_HEAP_GROWING_PERCENT through
 * `applyHeapGrowth`, keeps ~20 MB live in the old generation, then churns objects that outlive a
 * few scavenges (promoted, then dead), and prints the full (major) collections it saw.
 */
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { applyHeapGrowth } from '../../src/cli/v8-heap-growth.ts';

const flag = applyHeapGrowth(process.env);
let majors = 0;
const observer = new PerformanceObserver((list) => {
  for (const e of list.getEntries()) if ((e as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) majors++;
});
observer.observe({ entryTypes: ['gc'] });
const live: object[] = [];
for (let i = 0; i < 200_000; i++) live.push({ i, s: `live${i}`, a: [i, i + 1] });
const window: object[] = new Array<object>(50_000);
for (let i = 0; i < 800_000; i++) window[i % window.length] = { i, s: `x${i}`, a: [i] };
await sleep(200); // gc entries are delivered asynchronously
observer.disconnect();
console.log(JSON.stringify({ flag: flag ?? null, majors, live: live.length }));
