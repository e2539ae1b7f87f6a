import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Errors } from '../errors.ts';

/** A dataset location string, classified. Pure: no file system or network access. */
export type ParsedLocation =
  | { kind: 'file'; /** absolute, lexically normalised (symlinks not yet resolved) */ path: string }
  | { kind: 'http'; url: URL }
  | { kind: 's3'; bucket: string; key: string };

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]+):/; // two letters at least, so `C:` style drive letters are not schemes

/**
 * S3 bucket names: 3–63 characters, lowercase letters, digits, dots and hyphens (AWS rules).
 * Uppercase and underscores are accepted too for old buckets and S3-compatible stores; the name is
 * only ever used as one DNS label run or one path segment, so nothing here can change the host.
 */
const BUCKET = /^[A-Za-z0-9][A-Za-z0-9._-]{1,61}[A-Za-z0-9]$/;

/**
 * Classifies `location`: a local path (relative paths resolve against `cwd`), `file://`,
 * `http(s)://`, `s3://bucket/key`, or GDAL's `/vsicurl/<url>` and `/vsis3/bucket/key` spellings.
 * Throws BadRequest for malformed input and SourceForbidden for other schemes.
 */
export function parseLocation(location: string, cwd: string = process.cwd()): ParsedLocation {
  if (location === '') throw Errors.badRequest('Dataset location is empty');
  if (location.includes('\0')) throw Errors.badRequest('Dataset location contains a NUL character');

  if (location.startsWith('/vsicurl/')) return parseHttp(location.slice('/vsicurl/'.length));
  if (location.startsWith('/vsis3/')) return parseS3Path(location.slice('/vsis3/'.length), location);

  const scheme = SCHEME.exec(location)?.[1]?.toLowerCase();
  if (scheme === undefined) return { kind: 'file', path: path.resolve(cwd, location) };
  switch (scheme) {
    case 'http':
    case 'https':
      return parseHttp(location);
    case 's3':
      if (!/^s3:\/\//i.test(location)) throw Errors.badRequest(`Invalid S3 URL ${JSON.stringify(location)}: expected s3://bucket/key`);
      return parseS3Path(location.slice('s3://'.length), location);
    case 'file':
      return parseFileUrl(location);
    default:
      throw Errors.sourceForbidden(`Unsupported URL scheme "${scheme}:" (use a local path, file://, http://, https:// or s3://)`);
  }
}

function parseHttp(text: string): ParsedLocation {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw Errors.badRequest(`Invalid URL ${JSON.stringify(text)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw Errors.sourceForbidden(`Unsupported URL scheme "${url.protocol}" (use a local path, file://, http://, https:// or s3://)`);
  }
  if (url.username !== '' || url.password !== '') {
    throw Errors.badRequest('URLs with embedded credentials (user:password@host) are not supported');
  }
  url.hash = '';
  return { kind: 'http', url };
}

/** `bucket/key...`: the key is taken literally (like GDAL's /vsis3/: `?`, `#` and `%` are part of it). */
function parseS3Path(rest: string, original: string): ParsedLocation {
  const slash = rest.indexOf('/');
  const bucket = slash < 0 ? rest : rest.slice(0, slash);
  const key = slash < 0 ? '' : rest.slice(slash + 1);
  if (!BUCKET.test(bucket) || bucket.includes('..')) {
    throw Errors.badRequest(`Invalid S3 bucket name in ${JSON.stringify(original)}`);
  }
  if (key === '') throw Errors.badRequest(`S3 URL ${JSON.stringify(original)} names no object key`);
  // URL parsers collapse `.` and `..` path segments, which could turn the key into another
  // bucket's path on a path-style endpoint: refuse such keys.
  if (key.split('/').some((seg) => seg === '.' || seg === '..')) {
    throw Errors.badRequest(`S3 keys with "." or ".." path segments are not supported: ${JSON.stringify(original)}`);
  }
  return { kind: 's3', bucket, key };
}

function parseFileUrl(text: string): ParsedLocation {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw Errors.badRequest(`Invalid file URL ${JSON.stringify(text)}`);
  }
  if (url.hostname !== '' && url.hostname !== 'localhost') {
    throw Errors.sourceForbidden('file:// URLs must not name a host');
  }
  let p: string;
  try {
    p = fileURLToPath(new URL(`file://${url.pathname}`));
  } catch {
    throw Errors.badRequest(`Invalid file URL ${JSON.stringify(text)}`);
  }
  // `%00` decodes to a NUL, which no file name holds: the same 400 as a NUL in a plain path.
  if (p.includes('\0')) throw Errors.badRequest('Dataset location contains a NUL character');
  return { kind: 'file', path: path.resolve(p) };
}

/** The string that identifies a parsed location in caches (and is the Source's `url`). */
export function locationKey(loc: ParsedLocation): string {
  switch (loc.kind) {
    case 'file':
      return loc.path;
    case 'http':
      return loc.url.href;
    case 's3':
      return `s3://${loc.bucket}/${loc.key}`;
  }
}
