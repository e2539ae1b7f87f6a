/** The chunk index of a chunked layout, by its kind. */
import type { Layout } from '../messages/layout.ts';
import { btreeV2Index } from './btree-v2.ts';
import { extensibleArrayIndex } from './extensible-array.ts';
import { fixedArrayIndex } from './fixed-array.ts';
import { btreeV1Index, implicitIndex, singleChunkIndex } from './simple.ts';
import type { ChunkIndex, IndexContext } from './types.ts';

export function makeChunkIndex(layout: Extract<Layout, { kind: 'chunked' }>, ic: IndexContext): ChunkIndex {
  switch (layout.index) {
    case 'btree-v1':
      return btreeV1Index(ic);
    case 'single':
      return singleChunkIndex(ic, layout.single);
    case 'implicit':
      return implicitIndex(ic);
    case 'fixed-array':
      return fixedArrayIndex(ic);
    case 'extensible-array':
      return extensibleArrayIndex(ic);
    case 'btree-v2':
      return btreeV2Index(ic);
  }
}
