/**
 * Debian's nginx as a load balancer on loopback for tests: a generated config in a temporary
 * prefix (`-p`, `daemon off`, logs and temp files there), round-robin over the given upstreams,
 * retrying a request on the next upstream when one refuses or resets the connection (GETs are
 * idempotent) — what a production balancer in front of replicas does. Each answer carries
 * `X-Upstream` (the instance that served it).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './cli-server.ts';

const CANDIDATES = ['/usr/sbin/nginx', '/usr/bin/nginx'];

export const NGINX_BINARY: string | undefined = CANDIDATES.find((p) => existsSync(p)) ?? (spawnSync('nginx', ['-v']).status === 0 ? 'nginx' : undefined);

export const nginxSkipReason: string | undefined = NGINX_BINARY === undefined ? 'nginx is not installed (Debian package nginx-light)' : undefined;

export interface NginxProcess {
  url: string;
  port: number;
  stop(): Promise<void>;
  /** The error log so far (for failure messages). */
  log(): string;
}

function config(prefix: string, port: number, upstreams: readonly number[]): string {
  return `worker_processes 1;
daemon off;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 512; }
http {
  access_log ${prefix}/access.log;
  client_body_temp_path ${prefix}/tmp/body;
  proxy_temp_path ${prefix}/tmp/proxy;
  fastcgi_temp_path ${prefix}/tmp/fastcgi;
  uwsgi_temp_path ${prefix}/tmp/uwsgi;
  scgi_temp_path ${prefix}/tmp/scgi;
  upstream rastile {
${upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=0;`).join('\n')}
    keepalive 16;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://rastile;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_next_upstream error timeout http_502;
      proxy_next_upstream_tries ${upstreams.length + 1};
      proxy_read_timeout 60s;
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`;
}

/** nginx serving the files under `root` (its own ETag, Last-Modified and Range answers), instead of balancing. */
function staticConfig(prefix: string, port: number, root: string): string {
  return config(prefix, port, [port]).replace(/ {2}upstream rastile \{[\s\S]*$/, `  server {\n    listen 127.0.0.1:${port};\n    root ${root};\n  }\n}\n`);
}

export async function startNginx(upstreams: readonly number[]): Promise<NginxProcess> {
  return launch((prefix, port) => config(prefix, port, upstreams));
}

/**
 * nginx as a static file server over `root` (which must be readable by nginx's worker user when
 * the tests run as root: make it mode 0755). `/healthz` must exist under `root` (start-up probe).
 */
export async function startNginxStatic(root: string): Promise<NginxProcess> {
  return launch((prefix, port) => staticConfig(prefix, port, root));
}

async function launch(makeConfig: (prefix: string, port: number) => string): Promise<NginxProcess> {
  if (NGINX_BINARY === undefined) throw new Error('nginx is not installed');
  const prefix = mkdtempSync(path.join(tmpdir(), 'rastile-nginx-'));
  mkdirSync(path.join(prefix, 'tmp'));
  const port = await freePort();
  const conf = path.join(prefix, 'nginx.conf');
  writeFileSync(conf, makeConfig(prefix, port));
  const child: ChildProcess = spawn(NGINX_BINARY, ['-p', prefix, '-c', conf, '-e', path.join(prefix, 'error.log')], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${out}`);
    try {
      await fetch(`${url}/healthz`);
      break;
    } catch {
      if (i > 100) throw new Error(`nginx did not start: ${out}`);
      await sleep(50);
    }
  }
  return {
    url,
    port,
    log: () => out,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        await new Promise<void>((resolve) => {
          child.once('exit', () => resolve());
          child.kill('SIGTERM'); // nginx: fast shutdown
        });
      }
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}
