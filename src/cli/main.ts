/** `rastile serve` and `rastile info <path-or-url>`. */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildApp } from '../http/app.ts';
import { createServices } from '../http/services.ts';
import { isRastileError } from '../errors.ts';
import { configFromEnv, DEMO_DIR, type CliFlags } from './config-from-env.ts';

export const DEMO_FILE = path.join(DEMO_DIR, 'rastile-demo.tif');

const USAGE = `Usage:
  rastile serve [--host H] [--port P] [--local-roots DIR[:DIR…]] [--allow-private-hosts] [--cmr-url URL] [--trust-proxy V]
  rastile info <path-or-url>

Environment: HOST, PORT, RASTILE_LOCAL_ROOTS, RASTILE_ALLOW_PRIVATE_HOSTS, RASTILE_CMR_URL, RASTILE_TRUST_PROXY (see README).`;

export async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      host: { type: 'string' },
      port: { type: 'string' },
      'local-roots': { type: 'string' },
      'allow-private-hosts': { type: 'boolean' },
      'cmr-url': { type: 'string' },
      'trust-proxy': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, ...rest] = positionals;
  if (values.help || !command) {
    console.log(USAGE);
    return command || values.help ? 0 : 2;
  }
  const flags: CliFlags = {
    host: values.host,
    port: values.port,
    localRoots: values['local-roots'],
    allowPrivateHosts: values['allow-private-hosts'],
    cmrUrl: values['cmr-url'],
    trustProxy: values['trust-proxy'],
  };
  const config = configFromEnv(process.env, flags);
  if (command === 'serve') return serve(config);
  if (command === 'info') {
    const target = rest[0];
    if (!target) {
      console.error('rastile info: missing <path-or-url>\n\n' + USAGE);
      return 2;
    }
    try {
      const reader = await createServices(config).openCog(target);
      console.log(JSON.stringify(reader.info(), null, 2));
      return 0;
    } catch (err) {
      console.error(`rastile info: ${isRastileError(err) ? err.message : String(err)}`);
      return 1;
    }
  }
  console.error(`Unknown command '${command}'\n\n${USAGE}`);
  return 2;
}

async function serve(config: ReturnType<typeof configFromEnv>): Promise<number> {
  const app = buildApp(config, { logger: true });
  await app.listen({ host: config.host, port: config.port });
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const base = `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
  const demo = encodeURIComponent(DEMO_FILE);
  console.log(
    [
      '',
      `rastile is ready on ${base}  (API docs: ${base}/api.html)`,
      `Demo dataset url: ${DEMO_FILE}`,
      `  info:       ${base}/cog/info?url=${demo}`,
      `  statistics: ${base}/cog/statistics?url=${demo}`,
      `  map:        ${base}/cog/WebMercatorQuad/map.html?url=${demo}&rescale=0,3000&colormap_name=terrain`,
      '',
    ].join('\n'),
  );
  const stop = async (): Promise<void> => {
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
  return new Promise<number>(() => undefined);
}
