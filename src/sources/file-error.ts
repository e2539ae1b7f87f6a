import { Errors } from '../errors.ts';

/**
 * Maps a file system error to a typed error. `shown` is the path the user gave, never the real
 * one (messages must not reveal where the allowed roots lead).
 */
export function fileError(err: unknown, shown: string): unknown {
  const code = (err as { code?: unknown }).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return Errors.sourceNotFound(`File not found: ${shown}`, { cause: err, context: { url: shown } });
  if (code === 'EACCES' || code === 'EPERM') return Errors.sourceForbidden(`Permission denied: ${shown}`, { context: { url: shown } });
  if (code === 'EISDIR') return Errors.sourceNotFound(`Not a file: ${shown}`, { cause: err, context: { url: shown } });
  if (code === 'ELOOP') return Errors.sourceNotFound(`File not found (symlink loop): ${shown}`, { cause: err, context: { url: shown } });
  return Errors.upstream(`Cannot read ${shown}${typeof code === 'string' ? ` (${code})` : ''}`, { cause: err, context: { url: shown } });
}
