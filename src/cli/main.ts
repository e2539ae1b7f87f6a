/** `rastile serve` and `rastile info <path-or-url>`. */
import { parseArgs } from 'node:util';
import { isRastileError } from '../errors.ts';
import { configFromEnv, type CliFlags } from './config-from-env.ts';
import { serve } from './serve.ts';

export { DEMO_FILE } from './config-from-env.ts';

const USAGE = `Usage:
  rastile serve [--host H] [--port P] [--local-roots DIR[:DIR…]] [--allow-private-hosts] [--cmr-url URL] [--trust-proxy V] [--workers N]
  rastile info <path-or-url>
  rastile validate [--strict] <path-or-url>   (COG check like rio-cogeo; exit 1 when not a COG)
  rastile mosaic create [--quadkey-zoom Z] [--minzoom Z] [--maxzoom Z] [-o OUT.json] COG…

Environment: HOST, PORT, RASTILE_LOCAL_ROOTS, RASTILE_ALLOW_PRIVATE_HOSTS, RASTILE_CMR_URL, RASTILE_TRUST_PROXY, RASTILE_WORKERS, RASTILE_SHUTDOWN_TIMEOUT_MS (see README).`;

export async function main(argv: string[]): Promise<number> {
  // `rastile mosaic …` has its own options (src/cli/mosaic-create.ts).
  if (argv[0] === 'mosaic') return (await import('./mosaic-create.ts')).mosaicMain(argv.slice(1));
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
      workers: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
      strict: { type: 'boolean' },
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
    workers: values.workers,
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
      const { createServices } = await import('../http/services.ts');
      const reader = await createServices(config).openCog(target);
      console.log(JSON.stringify(reader.info(), null, 2));
      return 0;
    } catch (err) {
      console.error(`rastile info: ${isRastileError(err) ? err.message : String(err)}`);
      return 1;
    }
  }
  if (command === 'validate') {
    const target = rest[0];
    if (!target) {
      console.error('rastile validate: missing <path-or-url>\n\n' + USAGE);
      return 2;
    }
    try {
      const { createServices } = await import('../http/services.ts');
      const { cogInfo } = await import('../http/cog-validation.ts');
      const report = await cogInfo(createServices(config), target, values.strict === true);
      console.log(JSON.stringify(report, null, 2));
      return report.COG ? 0 : 1;
    } catch (err) {
      console.error(`rastile validate: ${isRastileError(err) ? err.message : String(err)}`);
      return 2;
    }
  }
  console.error(`Unknown command '${command}'\n\n${USAGE}`);
  return 2;
}
