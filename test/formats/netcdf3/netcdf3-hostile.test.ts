/** Hostile and broken NetCDF-3 headers: a clear InvalidFormat naming the field, no huge allocation. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { isRastileError } from '../../../src/errors.ts';
import { parseNc3Header } from '../../../src/formats/netcdf3/netcdf3-header.ts';
import { openNetcdf3 } from '../../../src/formats/netcdf3/open-netcdf3.ts';
import type { Source } from '../../../src/sources/source.ts';

const CLASSIC = readFileSync(path.resolve(import.meta.dirname, '../../fixtures/netcdf3/classic.nc'));

function memorySource(bytes: Uint8Array): Source {
  return { url: 'memory.nc', size: bytes.length, fetch: async (offset, length) => bytes.slice(offset, Math.min(bytes.length, offset + length)) };
}

function patched(at: number, value: number): Uint8Array {
  const b = new Uint8Array(CLASSIC);
  new DataView(b.buffer).setUint32(at, value);
  return b;
}

async function rejectsWith(bytes: Uint8Array, pattern: RegExp): Promise<void> {
  await assert.rejects(openNetcdf3(memorySource(bytes)), (err: unknown) => {
    assert.ok(isRastileError(err, 'InvalidFormat'), String(err));
    assert.match(err.message, pattern);
    JSON.stringify({ detail: err.message, ...err.context });
    return true;
  });
}

describe('NetCDF-3 hostile headers', () => {
  it('a truncated header', async () => {
    await rejectsWith(CLASSIC.subarray(0, 100), /larger than the file allows|header runs past the end of the file/);
  });
  it('a bad signature', async () => {
    await rejectsWith(new TextEncoder().encode('CDF\u0003xxxxxxxxxxxx'), /Not a NetCDF-3 file/);
  });
  it('a huge dimension count', async () => {
    await rejectsWith(patched(12, 0x7fffffff), /the number of dimensions \(2147483647\) is larger than the file allows/);
  });
  it('a huge name length', async () => {
    await rejectsWith(patched(16, 0x7ffffff0), /the name length of dimension 0 .* is larger than the file allows/);
  });
  it('a dimension longer than the data', async () => {
    // "time" (4 chars) then its length, then "lat": name length at 28, name at 32, length at 36.
    await rejectsWith(patched(36, 0x10000000), /the data of variable "\w+" .* runs past the end of the file \(2188 bytes\)/);
  });
  it('a begin offset past the end', async () => {
    const header = parseNc3Header(CLASSIC, CLASSIC.length, 'classic.nc');
    const headerEnd = Math.min(...header.vars.map((v) => v.begin));
    const last = header.vars.at(-1)!;
    assert.equal(new DataView(CLASSIC.buffer, CLASSIC.byteOffset).getUint32(headerEnd - 4), last.begin);
    await rejectsWith(patched(headerEnd - 4, 0x7ffffff0), new RegExp(`begin of variable "${last.name}" \\(2147483632\\) is past the end`));
  });
  it('an unknown variable type', async () => {
    const header = parseNc3Header(CLASSIC, CLASSIC.length, 'classic.nc');
    const headerEnd = Math.min(...header.vars.map((v) => v.begin));
    // The last variable ends with nc_type, vsize, begin.
    await rejectsWith(patched(headerEnd - 12, 9), new RegExp(`variable "${header.vars.at(-1)!.name}" has unknown type 9`));
  });
  it('every truncation of the header fails cleanly', async () => {
    const header = parseNc3Header(CLASSIC, CLASSIC.length, 'classic.nc');
    const headerEnd = Math.min(...header.vars.map((v) => v.begin));
    for (let n = 0; n < headerEnd; n += 7) {
      await assert.rejects(openNetcdf3(memorySource(CLASSIC.subarray(0, n))), (err: unknown) => isRastileError(err, 'InvalidFormat'));
    }
  });
  it('a file cut inside the data: open fails naming the variable', async () => {
    await rejectsWith(CLASSIC.subarray(0, CLASSIC.length - 10), /the data of variable "\w+" .* runs past the end/);
  });
});

describe('NetCDF-3 header fuzz', () => {
  it('random byte changes in the header: a RastileError or a readable file, never a crash', async () => {
    const header = parseNc3Header(CLASSIC, CLASSIC.length, 'classic.nc');
    const headerEnd = Math.min(...header.vars.map((v) => v.begin));
    let seed = 12345;
    const rand = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 300; round++) {
      const b = new Uint8Array(CLASSIC);
      for (let k = 0, n = 1 + rand(4); k < n; k++) b[4 + rand(headerEnd - 4)] = rand(256);
      try {
        const nc = await openNetcdf3(memorySource(b));
        for (const v of nc.root.variables.values()) {
          if (v.dtype === 'string' || v.shape.some((s) => s === 0)) continue;
          await v.readChunk(v.shape.map(() => 0)).catch((err: unknown) => assert.ok(isRastileError(err), String(err)));
        }
      } catch (err) {
        assert.ok(isRastileError(err), `round ${round}: ${String(err)}`);
      }
    }
  });
});
