/**
 * Opens a NetCDF-3 file (classic CDF-1, 64-bit offset CDF-2, CDF-5) as an ArrayFile: reads the
 * header (64 KiB first, more only when the header is larger), checks every variable's extent
 * against the file size, and reads data later chunk by chunk through the Source.
 */
import { Errors } from '../../errors.ts';
import type { Source } from '../../sources/source.ts';
import type { ArrayFile, ArrayVariable } from '../array/array-model.ts';
import { NeedMoreBytes, parseNc3Header, type Nc3Header } from './netcdf3-header.ts';
import { nc3Variable } from './netcdf3-variable.ts';
import { VIRTUAL_CHUNK_BYTES } from './virtual-chunks.ts';

const FIRST_READ = 64 * 1024;
/** Headers larger than this are refused (real ones are kilobytes; netCDF-c has no fixed limit). */
const MAX_HEADER_BYTES = 64 * 1024 * 1024;

/** True when `head` starts with a NetCDF-3 signature ("CDF" + version 1, 2 or 5). */
export function isNetcdf3Signature(head: Uint8Array): boolean {
  return head.length >= 4 && head[0] === 0x43 && head[1] === 0x44 && head[2] === 0x46 && (head[3] === 1 || head[3] === 2 || head[3] === 5);
}

export interface Netcdf3Options {
  /** Target bytes of a virtual chunk (default VIRTUAL_CHUNK_BYTES, 1 MiB); tests use tiny ones. */
  chunkBytes?: number;
}

export async function openNetcdf3(source: Source, signal?: AbortSignal, options: Netcdf3Options = {}): Promise<ArrayFile> {
  const { header, fileSize } = await readHeader(source, signal);
  const fail = (msg: string): never => {
    throw Errors.invalidFormat(`Invalid NetCDF-3 file: ${msg}`, { context: { url: source.url } });
  };
  const recordVars = header.vars.filter((v) => v.dimIds.length > 0 && header.dims[v.dimIds[0]!]!.length === 0);
  const innerBytes = (dimIds: readonly number[], size: number, from: number): number => dimIds.slice(from).reduce((a, id) => a * header.dims[id]!.length, size);
  // The record stride: every record variable's slice padded to 4 bytes, except that a file with
  // one record variable packs its records without padding (NetCDF format spec).
  const recordStride =
    recordVars.length === 1
      ? innerBytes(recordVars[0]!.dimIds, recordVars[0]!.type.size, 1)
      : recordVars.reduce((a, v) => a + Math.ceil(innerBytes(v.dimIds, v.type.size, 1) / 4) * 4, 0);
  let numrecs = header.numrecs;
  if (numrecs === null) {
    const start = Math.min(...recordVars.map((v) => v.begin));
    numrecs = recordVars.length === 0 || recordStride === 0 || !Number.isFinite(fileSize) ? 0 : Math.floor(Math.max(0, fileSize - start) / recordStride);
  }

  const variables = new Map<string, ArrayVariable>();
  for (const v of header.vars) {
    const isRecord = recordVars.includes(v);
    const shape = v.dimIds.map((id) => (header.dims[id]!.length === 0 ? numrecs : header.dims[id]!.length));
    const inner = innerBytes(v.dimIds, v.type.size, isRecord ? 1 : 0);
    const end = isRecord ? (numrecs === 0 ? v.begin : v.begin + (numrecs - 1) * recordStride + inner) : v.begin + inner;
    if (v.begin > fileSize) fail(`begin of variable "${v.name}" (${v.begin}) is past the end of the file (${fileSize} bytes)`);
    if (end > fileSize) fail(`the data of variable "${v.name}" (begin ${v.begin}, ${end - v.begin} bytes) runs past the end of the file (${fileSize} bytes)`);
    if (variables.has(v.name)) fail(`two variables are named "${v.name}"`);
    const dims = v.dimIds.map((id) => header.dims[id]!.name);
    variables.set(v.name, nc3Variable(source, v, { shape, dims, isRecord, recordStride }, options.chunkBytes ?? VIRTUAL_CHUNK_BYTES));
  }
  return {
    location: source.url,
    version: source.version ?? `size:${fileSize}`,
    driver: 'netCDF',
    root: { name: '', path: '/', attrs: header.attrs, variables, groups: new Map() },
  };
}

async function readHeader(source: Source, signal: AbortSignal | undefined): Promise<{ header: Nc3Header; fileSize: number }> {
  let bytes = await source.fetch(0, FIRST_READ, signal);
  // The file's size: from the source, else where a read came back short.
  let end = bytes.length < FIRST_READ ? bytes.length : Infinity;
  const sizeNow = (): number => source.size ?? end;
  if (!isNetcdf3Signature(bytes)) throw Errors.invalidFormat('Not a NetCDF-3 file (no "CDF" signature)', { context: { url: source.url } });
  for (;;) {
    try {
      return { header: parseNc3Header(bytes, sizeNow(), source.url), fileSize: sizeNow() };
    } catch (err) {
      if (!(err instanceof NeedMoreBytes)) throw err;
      const want = Math.max(err.atLeast, bytes.length * 2);
      if (want > MAX_HEADER_BYTES) {
        throw Errors.invalidFormat(`NetCDF-3 header larger than ${MAX_HEADER_BYTES} bytes is not supported`, { context: { url: source.url } });
      }
      const more = await source.fetch(bytes.length, want - bytes.length, signal);
      if (more.length < want - bytes.length) end = bytes.length + more.length;
      if (more.length === 0) throw Errors.invalidFormat('Invalid NetCDF-3 file: the header runs past the end of the file', { context: { url: source.url } });
      const joined = new Uint8Array(bytes.length + more.length);
      joined.set(bytes);
      joined.set(more, bytes.length);
      bytes = joined;
    }
  }
}
