/**
 * AsyncLocalStorage without promise hooks for `rastile serve` on Node 22: the process replaces
 * itself once (`process.execve`, same pid, stdio, signals and exit code) with the same command line
 * plus `--experimental-async-context-frame`.
 *
 * Our per-request state (request budget, read set, shared work) travels in AsyncLocalStorage. On
 * Node 22 that installs V8 promise hooks: every promise runs Node's `promiseInitHook` /
 * `emitInitScript` (~1 500 promises per new-file array tile), and those functions are compiled by
 * TurboFan during the first tiles of a new process, on the same cores as the request. With the
 * flag (the default from Node 24, which rejects the flag: `--no-async-context-frame` there)
 * the store rides on V8's continuation-preserved data and no hook runs. Measured in
 * BENCHMARKS.md (arrays, "Cold first tile, part 7").
 *
 * Cluster workers inherit the flag from the primary's `execArgv`, worker threads from the process.
 * `RASTILE_ASYNC_CONTEXT_FRAME=0` keeps the process as started.
 */
import { AsyncLocalStorage, executionAsyncResource } from 'node:async_hooks';
import { isMainThread } from 'node:worker_threads';

export const ASYNC_CONTEXT_FRAME_FLAG = '--experimental-async-context-frame';

interface ProcessView {
  env: NodeJS.ProcessEnv;
  execArgv: readonly string[];
  /** `process.argv`: the node binary, the script, its arguments. */
  argv: readonly string[];
  /** Does this node accept the flag (Node 22.7+ yes; Node 24+ no: it is the default there). */
  accepts: boolean;
  /** Can this process replace itself (`process.execve`, Node 22.15+, not on Windows, main thread only). */
  canExec: boolean;
}

/**
 * The argument vector to re-execute this process with (argv[0] = node), or undefined to go on as
 * is: the flag is not accepted (Node 24+: already the default), already given (command line or
 * NODE_OPTIONS, either spelling), switched off by RASTILE_ASYNC_CONTEXT_FRAME=0, or no execve.
 */
export function asyncContextFrameArgv(p: ProcessView): string[] | undefined {
  if (!p.accepts || !p.canExec) return undefined;
  if (p.env['RASTILE_ASYNC_CONTEXT_FRAME']?.trim() === '0') return undefined;
  const given = (a: string): boolean => a.endsWith('async-context-frame');
  if (p.execArgv.some(given) || (p.env['NODE_OPTIONS'] ?? '').split(/\s+/).some(given)) return undefined;
  const [node, ...rest] = p.argv;
  if (node === undefined || rest.length === 0) return undefined;
  return [node, ...p.execArgv, ASYNC_CONTEXT_FRAME_FLAG, ...rest];
}

/** Re-executes this process with the flag when it applies (does not return then); else returns. */
export function enterAsyncContextFrame(): void {
  const execve = (process as { execve?: (file: string, args: string[], env: NodeJS.ProcessEnv) => never }).execve;
  const argv = asyncContextFrameArgv({
    env: process.env,
    execArgv: process.execArgv,
    argv: [process.execPath, ...process.argv.slice(1)],
    accepts: process.allowedNodeEnvironmentFlags.has(ASYNC_CONTEXT_FRAME_FLAG),
    canExec: typeof execve === 'function' && process.platform !== 'win32',
  });
  if (argv === undefined || !isMainThread) return;
  execve!.call(process, process.execPath, argv, process.env);
}

/**
 * Does AsyncLocalStorage run on async context frames in this isolate? The promise-hook
 * implementation keeps a store on the current async resource (a symbol-keyed property); the frame
 * implementation does not touch it. Logged at start (serve.ts) and checked by the CLI tests.
 */
export function asyncContextFrameActive(): boolean {
  const probe = new AsyncLocalStorage<number>();
  try {
    return probe.run(1, () => Object.getOwnPropertySymbols(executionAsyncResource()).length === 0);
  } finally {
    probe.disable();
  }
}
