/**
 * Starts the real rastile server on 127.0.0.1 with an ephemeral port for integration tests.
 * Local roots: the repo's test fixtures and the demo folder; private hosts allowed (tests talk
 * to local HTTP/S3 stand-ins) unless the test says otherwise.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { configFromEnv } from '../../src/cli/config-from-env.ts';
import type { Config } from '../../src/config.ts';
import { buildApp, type AppOptions } from '../../src/http/app.ts';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const FIXTURES = path.join(REPO, 'test', 'fixtures');
export const SHARED = path.resolve(REPO, '..', 'shared');

export interface TestServer {
  url: string;
  config: Config;
  get(pathAndQuery: string, init?: RequestInit): Promise<Response>;
  getJson<T = unknown>(pathAndQuery: string): Promise<{ status: number; body: T; headers: Headers }>;
  post(pathAndQuery: string, body: unknown): Promise<Response>;
  close(): Promise<void>;
}

export async function startTestServer(patch: (c: Config) => void = () => undefined, appOptions: AppOptions = {}): Promise<TestServer> {
  const config = configFromEnv({}, { localRoots: [FIXTURES, path.join(REPO, 'demo'), SHARED].join(':'), allowPrivateHosts: true });
  config.port = 0;
  config.cacheControl = 'private, max-age=3600';
  patch(config);
  const app = buildApp(config, appOptions);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;
  const get = (p: string, init?: RequestInit): Promise<Response> => fetch(`${url}${p}`, init);
  return {
    url,
    config,
    get,
    async getJson<T>(p: string) {
      const r = await get(p);
      return { status: r.status, body: (await r.json()) as T, headers: r.headers };
    },
    post: (p, body) => fetch(`${url}${p}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    close: () => app.close(),
  };
}

export const fixture = (...parts: string[]): string => path.join(FIXTURES, ...parts);
export const q = (v: string): string => encodeURIComponent(v);
