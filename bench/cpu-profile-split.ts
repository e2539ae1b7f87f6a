/**
 * Splits a V8 CPU profile (node --cpu-prof) of a server under load by where its busy time went:
 * each sample is charged to the first matching category walking up from the sampled frame
 * (innermost wins), so nested categories do not double count. Idle samples are left out; the
 * window is the profile's last `lastSeconds` (the measured run, without start-up and warm-up).
 *
 *   node --import tsx bench/cpu-profile-split.ts <file.cpuprofile> [lastSeconds]
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Categories in priority order for a frame (the first that matches names it). */
const CATEGORIES: Array<[string, (fn: string, url: string) => boolean]> = [
  ['socket write (kernel writev)', (fn) => fn === 'writev' || fn === 'writeBuffer' || fn === 'writeUtf8String'],
  ['garbage collector', (fn) => fn === '(garbage collector)'],
  ['source version stats (fs.stat of the file, its directory, sidecars)', (_fn, url) => url.includes('local-version-peek')],
  ['response cache (key, version stats, lookup)', (_fn, url) => url.includes('/response-cache/')],
  ['metrics (prom-client)', (_fn, url) => url.includes('metrics-routes') || url.includes('response-metrics') || url.includes('prom-client')],
  ['admission hook (budget, deadline)', (_fn, url) => url.includes('/http/admission') || url.includes('request-budget')],
  ['route: parameters, signal, send', (_fn, url) => /\/http\/(route|validation|params|lifecycle|app)\b/.test(url) || url.includes('/http/validation/')],
  ['logging (pino)', (_fn, url) => url.includes('/pino') || url.includes('logger-factory')],
  ['Fastify (router, hooks, reply)', (_fn, url) => url.includes('/fastify/') || url.includes('find-my-way') || url.includes('light-my-request')],
  ['node http + streams', (_fn, url) => /node:(_http|internal\/streams|net|internal\/stream_base|events)/.test(url)],
];

export interface Split {
  busyMs: number;
  shares: Array<{ category: string; share: number }>;
}

export function splitProfile(file: string, lastSeconds = 0): Split {
  const prof = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const categoryOf = new Map<number, string>();
  const classify = (id: number): string => {
    const known = categoryOf.get(id);
    if (known !== undefined) return known;
    let category = 'other (our code elsewhere, node internals)';
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const { functionName, url } = byId.get(cur)!.callFrame;
      const hit = CATEGORIES.find(([, test]) => test(functionName, url));
      if (hit !== undefined) {
        category = hit[0];
        break;
      }
    }
    categoryOf.set(id, category);
    return category;
  };
  let end = 0;
  const times = prof.timeDeltas.map((d) => (end += d));
  const from = lastSeconds > 0 ? end - lastSeconds * 1e6 : -Infinity;
  const totals = new Map<string, number>();
  let busy = 0;
  prof.samples.forEach((id, i) => {
    if (times[i] < from) return;
    const fn = byId.get(id)!.callFrame.functionName;
    if (fn === '(idle)' || fn === '(program)') return;
    const dt = prof.timeDeltas[i] ?? 0;
    busy += dt;
    const c = classify(id);
    totals.set(c, (totals.get(c) ?? 0) + dt);
  });
  return {
    busyMs: busy / 1000,
    shares: [...totals].sort((a, b) => b[1] - a[1]).map(([category, t]) => ({ category, share: t / busy })),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const split = splitProfile(process.argv[2], Number(process.argv[3] ?? 0));
  console.log(`busy ${split.busyMs.toFixed(0)} ms`);
  for (const s of split.shares) console.log(`${(100 * s.share).toFixed(1).padStart(5)} %  ${s.category}`);
}
