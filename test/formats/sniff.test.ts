import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sniffFormat } from '../../src/formats/sniff.ts';

const bytes = (...parts: Array<string | number[]>): Uint8Array =>
  Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? Array.from(p, (c) => c.charCodeAt(0)) : p)));

describe('sniffFormat', () => {
  it('names array formats and points at the array backend', () => {
    assert.equal(sniffFormat(bytes('CDF', [1, 0, 0, 0]))?.name, 'a NetCDF-3 (classic) file');
    assert.equal(sniffFormat(bytes('CDF', [2]))?.name, 'a NetCDF-3 (64-bit offset) file');
    assert.equal(sniffFormat(bytes('CDF', [5]))?.name, 'a NetCDF-3 (CDF-5) file');
    const hdf5 = bytes([0x89], 'HDF\r\n', [0x1a, 0x0a]);
    assert.equal(sniffFormat(hdf5)?.name, 'an HDF5 (or NetCDF-4) file');
    // after a 512-byte user block
    const shifted = new Uint8Array(600);
    shifted.set(hdf5, 512);
    assert.match(sniffFormat(shifted)?.hint ?? '', /\/zarr/);
    assert.equal(sniffFormat(bytes([0x0e, 0x03, 0x13, 0x01]))?.name, 'an HDF4 file');
  });
  it('names images and documents', () => {
    assert.equal(sniffFormat(bytes([0x89], 'PNG\r\n', [0x1a, 0x0a]))?.name, 'a PNG image');
    assert.equal(sniffFormat(bytes([0xff, 0xd8, 0xff, 0xe0]))?.name, 'a JPEG image');
    assert.equal(sniffFormat(bytes([0, 0, 0, 0x0c], 'jP  ', [0x0d, 0x0a, 0x87, 0x0a]))?.name, 'a JPEG 2000 (JP2) file');
    assert.equal(sniffFormat(bytes('PK', [3, 4]))?.name, 'a ZIP archive');
    assert.equal(sniffFormat(bytes('  <!DOCTYPE html><html>'))?.name, 'an HTML page');
    assert.match(sniffFormat(bytes('{"type": "Feature"}'))?.hint ?? '', /\/stac/);
  });
  it('returns null for unknown bytes', () => {
    assert.equal(sniffFormat(bytes([1, 2, 3, 4, 5, 6, 7, 8])), null);
  });
});
