/**
 * A real Debian `redis-server` for tests, on a free loopback port with a temporary directory and
 * no persistence (`--save '' --appendonly no`), started and stopped by the test.
 *
 * ```ts
 * const redis = await startRedis();          // undefined when redis-server is not installed
 * redis.url;                                 // redis://127.0.0.1:<port>
 * redis.kill();                              // SIGKILL (an outage); redis.start() brings it back on the same port
 * await redis.stop();
 * ```
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './cli-server.ts';

export const REDIS_BINARY = 'redis-server';

/** Why redis tests cannot run here (no binary), or undefined. */
export const redisSkipReason: string | undefined =
  spawnSync(REDIS_BINARY, ['--version'], { stdio: 'ignore' }).status === 0 ? undefined : 'redis-server is not installed (Debian package redis-server)';

export interface RedisProcess {
  url: string;
  port: number;
  /** Starts (again) on the same port. */
  start(): Promise<void>;
  /** SIGKILL: the server vanishes without a goodbye. */
  kill(): void;
  stop(): Promise<void>;
}

function launch(port: number, dir: string): Promise<ChildProcess> {
  const child = spawn(REDIS_BINARY, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`redis-server did not start: ${out}`));
    }, 10_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (/Ready to accept connections/i.test(out)) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited (${code}): ${out}`));
    });
  });
}

export async function startRedis(): Promise<RedisProcess> {
  const dir = mkdtempSync(path.join(tmpdir(), 'rastile-redis-'));
  let port = 0;
  let child: ChildProcess | undefined;
  for (let attempt = 0; child === undefined; attempt++) {
    port = await freePort();
    try {
      child = await launch(port, dir);
    } catch (err) {
      if (attempt >= 4) throw err; // the port was taken between the probe and the start
    }
  }
  const redis: RedisProcess = {
    url: `redis://127.0.0.1:${port}`,
    port,
    async start() {
      if (child === undefined || child.exitCode !== null || child.signalCode !== null) child = await launch(port, dir);
    },
    kill() {
      child?.kill('SIGKILL');
    },
    async stop() {
      const c = child;
      if (c !== undefined && c.exitCode === null && c.signalCode === null) {
        await new Promise<void>((resolve) => {
          c.once('exit', () => resolve());
          c.kill('SIGKILL');
        });
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return redis;
}
