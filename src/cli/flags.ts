/**
 * The command line's flags, as data: one row per flag (adding a flag is one line here). `--help`,
 * parsing, value checks and "did you mean" suggestions are all derived from this table.
 */
import type { CliFlags } from './config-from-env.ts';

export interface FlagSpec {
  /** Long name, without the dashes. */
  name: string;
  /** The CliFlags field it sets. */
  key: keyof CliFlags;
  type: 'string' | 'boolean';
  /** Placeholder shown in help for string flags. */
  arg?: string;
  /** The environment variable it overrides, shown in help. */
  env?: string;
  help: string;
  /** A one-line problem with the value (without the flag name), or undefined when it is fine. */
  check?: (value: string) => string | undefined;
}

const integer = (min: number, max: number) => (v: string) =>
  /^\d+$/.test(v) && Number(v) >= min && Number(v) <= max ? undefined : `must be an integer from ${min} to ${max}, got '${v}'`;

export const SERVE_FLAGS: readonly FlagSpec[] = [
  { name: 'host', key: 'host', type: 'string', arg: 'HOST', env: 'HOST', help: 'address to listen on (default 127.0.0.1; 0.0.0.0 for every interface)' },
  { name: 'port', key: 'port', type: 'string', arg: 'PORT', env: 'PORT', help: 'TCP port (default 8000)', check: integer(0, 65535) },
  {
    name: 'local-roots',
    key: 'localRoots',
    type: 'string',
    arg: 'DIR[:DIR…]',
    env: 'RASTILE_LOCAL_ROOTS',
    help: 'directories whose files clients may read (default: the current directory and the demo)',
  },
  {
    name: 'allow-private-hosts',
    key: 'allowPrivateHosts',
    type: 'boolean',
    env: 'RASTILE_ALLOW_PRIVATE_HOSTS',
    help: 'let clients name URLs on loopback/private networks (off by default)',
  },
  {
    name: 'cmr-url',
    key: 'cmrUrl',
    type: 'string',
    arg: 'URL',
    env: 'RASTILE_CMR_URL',
    help: 'NASA CMR search endpoint (default https://cmr.earthdata.nasa.gov)',
  },
  {
    name: 'trust-proxy',
    key: 'trustProxy',
    type: 'string',
    arg: 'V',
    env: 'RASTILE_TRUST_PROXY',
    help: 'true, false, a hop count or proxy addresses/CIDRs (X-Forwarded-*)',
  },
  {
    name: 'workers',
    key: 'workers',
    type: 'string',
    arg: 'N',
    env: 'RASTILE_WORKERS',
    help: 'workers serving in parallel (default: one per available core)',
    check: integer(1, 1024),
  },
  {
    name: 'worker-mode',
    key: 'workerMode',
    type: 'string',
    arg: 'MODE',
    env: 'RASTILE_WORKER_MODE',
    help: 'how several workers run: threads (one process) or processes (node cluster)',
    check: (v) => (v === 'threads' || v === 'processes' ? undefined : `must be threads or processes, got '${v}'`),
  },
];

export const INFO_FLAGS: readonly FlagSpec[] = [
  {
    name: 'allow-private-hosts',
    key: 'allowPrivateHosts',
    type: 'boolean',
    env: 'RASTILE_ALLOW_PRIVATE_HOSTS',
    help: 'allow URLs on loopback/private networks',
  },
];

export const VALIDATE_FLAGS: readonly FlagSpec[] = [
  { name: 'strict', key: 'strict', type: 'boolean', help: 'treat warnings as errors (like rio cogeo validate --strict)' },
  ...INFO_FLAGS,
];

/** Edit distance (insert, delete, substitute), for "did you mean". */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row.push(Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    prev = row;
  }
  return prev[b.length]!;
}

/** The closest of `names` to `name` (a prefix, or at most 2 edits away), if any. */
export function closest(name: string, names: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (const n of names) {
    const d = n.startsWith(name) && name.length >= 2 ? 0.5 : distance(name, n);
    if (d < bestD) [best, bestD] = [n, d];
  }
  return bestD <= (name.length >= 4 ? 2 : 1) ? best : undefined;
}

/** Help lines for a flag table, aligned. */
export function flagHelp(flags: readonly FlagSpec[]): string {
  const rows = [
    ...flags.map((f) => [`--${f.name}${f.arg ? ` ${f.arg}` : ''}`, f.help + (f.env ? ` [env ${f.env}]` : '')] as const),
    ['--help', 'this help'] as const,
  ];
  const width = Math.max(...rows.map((r) => r[0].length), 10);
  return rows.map(([l, r]) => `  ${l.padEnd(width)}  ${r}`).join('\n');
}
