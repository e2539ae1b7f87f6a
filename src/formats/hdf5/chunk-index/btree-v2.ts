/** v2 B-tree chunk index (record types 10 and 11), used with several unlimited dimensions. */
import { Errors } from '../../../errors.ts';
import { Cursor, UNDEF } from '../bytes.ts';
import { findRecord, readBTreeV2 } from '../btree-v2.ts';
import type { ChunkIndex, IndexContext } from './types.ts';
import { chunkSizeLength } from './types.ts';

export function btreeV2Index(ic: IndexContext): ChunkIndex {
  const { ctx } = ic;
  const o = ctx.sizeOfOffsets;
  const rank = ic.shape.length;
  const sizeLen = chunkSizeLength(ic.chunkBytes);
  const offsetsAt = ic.filtered ? o + sizeLen + 4 : o;
  return {
    async find(coords, signal) {
      if (ic.address === UNDEF) return null;
      const tree = await readBTreeV2(ctx, ic.address, signal);
      const expected = ic.filtered ? 11 : 10;
      if (tree.type !== expected || tree.recordSize !== offsetsAt + 8 * rank) {
        throw Errors.invalidFormat(`HDF5 ${ic.what}: chunk B-tree has record type ${tree.type} of ${tree.recordSize} bytes, expected type ${expected}`);
      }
      const compare = (r: Uint8Array): number => {
        const view = new DataView(r.buffer, r.byteOffset, r.byteLength);
        for (let i = 0; i < rank; i++) {
          const v = Number(view.getBigUint64(offsetsAt + 8 * i, true));
          if (v !== coords[i]) return v < coords[i] ? -1 : 1;
        }
        return 0;
      };
      const rec = await findRecord(ctx, tree, compare, signal);
      if (rec === null) return null;
      const c = new Cursor(rec, `${ic.what} chunk record`);
      const address = c.uint(o, 'chunk address', true);
      if (address < 0) return null;
      if (!ic.filtered) return { address, size: ic.chunkBytes, mask: 0 };
      return { address, size: c.uint(sizeLen, 'chunk size'), mask: c.u32('filter mask') };
    },
  };
}
