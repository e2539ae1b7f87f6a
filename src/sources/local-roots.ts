import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { Errors } from '../errors.ts';
import { fileError } from './file-error.ts';

const isInside = (child: string, root: string): boolean => child === root || child.startsWith(root.endsWith(path.sep) ? root : root + path.sep);

/** Roots named in a 403's message; more are only counted. */
const MAX_LISTED = 3;

/**
 * The directories local datasets may come from. A path is checked twice: lexically (so nothing
 * outside the roots is even looked at, and "does not exist" never leaks for outside paths) and
 * after realpath (so symlinks and `..` cannot lead out).
 */
export class LocalRoots {
  private real: Promise<string[]> | undefined;

  constructor(private readonly roots: readonly string[]) {}

  private realRoots(): Promise<string[]> {
    this.real ??= Promise.all(this.roots.map((r) => realpath(r).catch(() => r)));
    return this.real;
  }

  /** Which directories are allowed (listed when few, counted when many) and the setting that changes them. */
  describe(): string {
    const which = this.roots.length <= MAX_LISTED ? `Allowed: ${this.roots.join(', ')}` : `${this.roots.length} directories are allowed`;
    return `${which} (the server's --local-roots or RASTILE_LOCAL_ROOTS setting).`;
  }

  /** The real path of `absPath`, or SourceForbidden / SourceNotFound. `shown` is what messages say. */
  async resolve(absPath: string, shown: string): Promise<string> {
    const forbidden = () => Errors.sourceForbidden(`Local path is outside the allowed directories: ${shown}. ${this.describe()}`);
    if (this.roots.length === 0)
      throw Errors.sourceForbidden(
        `Local files are not enabled on this server: ${shown}. The server's operator can allow directories with --local-roots or RASTILE_LOCAL_ROOTS.`,
      );
    const real = await this.realRoots();
    const lexicalOk = this.roots.some((r) => isInside(absPath, r)) || real.some((r) => isInside(absPath, r));
    if (!lexicalOk) throw forbidden();
    let resolved: string;
    try {
      resolved = await realpath(absPath);
    } catch (err) {
      throw fileError(err, shown);
    }
    if (!real.some((r) => isInside(resolved, r))) throw forbidden();
    return resolved;
  }
}
