/**
 * The `rastile` command line: `serve`, `info <path-or-url>`, `--version`, `--help` (per command).
 * Flags come from the tables in src/cli/flags.ts; every usage problem (unknown command or option,
 * missing or bad value, busy port, bad environment setting) is one line on stderr saying what to
 * type instead, and exit code 2.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Config } from '../config.ts';
import { isRastileError } from '../errors.ts';
import { RASTILE_VERSION } from '../version.ts';
import { configFromEnv, type CliFlags } from './config-from-env.ts';
import { closest, flagHelp, INFO_FLAGS, SERVE_FLAGS, VALIDATE_FLAGS, type FlagSpec } from './flags.ts';
import { UsageError } from './usage-error.ts';

export { DEMO_FILE } from './config-from-env.ts';

interface Command {
  name: string;
  /** Arguments after the command name, for help. */
  args: string;
  summary: string;
  flags: readonly FlagSpec[];
  run(flags: CliFlags, positionals: string[]): Promise<number>;
}

const COMMANDS: Command[] = [
  {
    name: 'serve',
    args: '',
    summary: 'serve the tile API (TiTiler-compatible) over HTTP',
    flags: SERVE_FLAGS,
    async run(flags, positionals) {
      if (positionals.length > 0)
        throw new UsageError(`serve takes no arguments, got '${positionals[0]}' (a folder to serve? use --local-roots ${positionals[0]})`);
      const config = configFromEnv(process.env, flags);
      // Node 22: once, the same command again with AsyncLocalStorage on async context frames.
      (await import('./async-context-frame.ts')).enterAsyncContextFrame();
      const { serve } = await import('./serve.ts');
      return serve(config);
    },
  },
  {
    name: 'info',
    args: '<path-or-url>',
    summary: "print a dataset's /cog/info JSON",
    flags: INFO_FLAGS,
    async run(flags, positionals) {
      const target = positionals[0];
      if (target === undefined) throw new UsageError('info needs a file or URL: rastile info <path-or-url>');
      if (positionals.length > 1) throw new UsageError(`info takes one file or URL, got ${positionals.length}`);
      const { config, location } = userConfig(flags, target);
      try {
        const { createServices } = await import('../http/services.ts');
        const reader = await createServices(config).openCog(location);
        console.log(JSON.stringify(reader.info(), null, 2));
        return 0;
      } catch (err) {
        console.error(`rastile info: ${isRastileError(err) ? err.message : String(err)}`);
        return 1;
      }
    },
  },
  {
    name: 'validate',
    args: '<path-or-url>',
    summary: 'check a Cloud-Optimized GeoTIFF like rio-cogeo (exit 1 when not a COG)',
    flags: VALIDATE_FLAGS,
    async run(flags, positionals) {
      const target = positionals[0];
      if (target === undefined) throw new UsageError('validate needs a file or URL: rastile validate [--strict] <path-or-url>');
      const { config, location } = userConfig(flags, target);
      try {
        const { createServices } = await import('../http/services.ts');
        const { cogInfo } = await import('../http/cog-validation.ts');
        const report = await cogInfo(createServices(config), location, flags.strict === true);
        console.log(JSON.stringify(report, null, 2));
        return report.COG ? 0 : 1;
      } catch (err) {
        console.error(`rastile validate: ${isRastileError(err) ? err.message : String(err)}`);
        return 2;
      }
    },
  },
];

/**
 * The config for a command run on a file the user names. The local-roots confinement protects the
 * HTTP server from its clients; here the user is on their own machine, so any file they can read
 * is theirs to inspect.
 */
function userConfig(flags: CliFlags, target: string): { config: Config; location: string } {
  const config = configFromEnv(process.env, flags);
  const isUrl = /^[a-z][a-z0-9+.-]*:\/\//i.test(target);
  const location = isUrl ? target : path.resolve(target);
  if (!isUrl || target.startsWith('file:')) config.sources.localRoots = [path.parse(path.resolve(location.replace(/^file:\/\//, ''))).root];
  return { config, location };
}

function usage(): string {
  const width = Math.max(...COMMANDS.map((c) => `${c.name} ${c.args}`.length));
  return [
    'Usage: rastile <command> [flags]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${`${c.name} ${c.args}`.padEnd(width)}  ${c.summary}`),
    `  ${'mosaic create COG…'.padEnd(width)}  write a MosaicJSON indexing COGs (rastile mosaic --help)`,
    '',
    'Flags: --help (also after a command: rastile serve --help), --version',
    'Settings without a flag are environment variables (README "Configuration").',
  ].join('\n');
}

function commandHelp(c: Command): string {
  return [`Usage: rastile ${c.name}${c.args ? ` ${c.args}` : ''} [flags]`, '', c.summary, '', 'Flags:', flagHelp(c.flags)].join('\n');
}

/** Flags of `command` from argv, checked against its table; throws UsageError on any problem. */
function parseFlags(command: Command, argv: string[]): { flags: CliFlags; positionals: string[]; help: boolean } {
  const options: Record<string, { type: 'string' | 'boolean' }> = { help: { type: 'boolean' } };
  for (const f of command.flags) options[f.name] = { type: f.type };
  const { tokens } = parseArgs({ args: argv, options, strict: false, allowPositionals: true, tokens: true });
  const flags: Record<string, string | boolean> = {};
  const positionals: string[] = [];
  let help = false;
  for (const t of tokens) {
    if (t.kind === 'positional') positionals.push(t.value);
    if (t.kind !== 'option') continue;
    if (t.name === 'help' || t.name === 'h') {
      help = true;
      continue;
    }
    const spec = command.flags.find((f) => f.name === t.name);
    if (spec === undefined) {
      const names = command.flags.map((f) => f.name);
      const near = closest(t.name, names);
      const elsewhere = COMMANDS.find((c) => c !== command && c.flags.some((f) => f.name === t.name));
      const hint = near ? `; did you mean --${near}?` : elsewhere ? `; it is a flag of 'rastile ${elsewhere.name}'` : `; see rastile ${command.name} --help`;
      throw new UsageError(`unknown option ${t.rawName} for '${command.name}'${hint}`);
    }
    if (spec.type === 'boolean') {
      if (t.value !== undefined) throw new UsageError(`--${spec.name} takes no value (got '${t.value}')`);
      flags[spec.key] = true;
      continue;
    }
    if (t.value === undefined || (t.inlineValue !== true && t.value.startsWith('--')))
      throw new UsageError(`--${spec.name} needs a value: --${spec.name} ${spec.arg ?? 'VALUE'}`);
    const problem = spec.check?.(t.value);
    if (problem !== undefined) throw new UsageError(`--${spec.name} ${problem}`);
    flags[spec.key] = t.value;
  }
  return { flags: flags as CliFlags, positionals, help };
}

export async function main(argv: string[]): Promise<number> {
  try {
    const first = argv[0];
    if (first === '--version' || first === '-v' || first === 'version') {
      console.log(`rastile ${RASTILE_VERSION} (node ${process.version})`);
      return 0;
    }
    if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
      const topic = first === 'help' ? COMMANDS.find((c) => c.name === argv[1]) : undefined;
      if (topic) console.log(commandHelp(topic));
      else (first === undefined ? console.error : console.log)(usage());
      return first === undefined ? 2 : 0;
    }
    // `rastile mosaic …` has its own options and help (src/cli/mosaic-create.ts).
    if (first === 'mosaic') return await (await import('./mosaic-create.ts')).mosaicMain(argv.slice(1));
    const command = COMMANDS.find((c) => c.name === first);
    if (command === undefined) {
      const near = closest(
        first.replace(/^-+/, ''),
        COMMANDS.map((c) => c.name),
      );
      const what = first.startsWith('-') ? `option ${first} before a command` : `command '${first}'`;
      throw new UsageError(`unknown ${what}${near ? `; did you mean 'rastile ${near}'?` : `; commands: ${COMMANDS.map((c) => c.name).join(', ')}`}`);
    }
    const { flags, positionals, help } = parseFlags(command, argv.slice(1));
    if (help) {
      console.log(commandHelp(command));
      return 0;
    }
    return await command.run(flags, positionals);
  } catch (err) {
    // Usage errors and bad settings (configFromEnv's messages name the variable): one line, exit 2.
    if (err instanceof UsageError || (err instanceof Error && !isRastileError(err) && /^[A-Z_]+ must be|^RASTILE_|^LOG_FORMAT/.test(err.message))) {
      console.error(`rastile: ${err.message}`);
      return 2;
    }
    throw err;
  }
}
