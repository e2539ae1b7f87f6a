/**
 * A dataset's header messages decoded into what reading needs: shape, type, layout, filters,
 * fill value. Header fields are cross-checked here (chunk rank against the shape, the
 * contiguous size against shape × element size) before anything is allocated.
 */
import { Errors } from '../../errors.ts';
import { committedType } from './attr-values.ts';
import { Cursor } from './bytes.ts';
import { parseDatatype, type Datatype } from './datatype.ts';
import type { FileContext } from './file-context.ts';
import { sharedAddress } from './messages/attribute.ts';
import { parseDataspace, type Dataspace } from './messages/dataspace.ts';
import { parseFillValue, parseOldFillValue, type FillValue } from './messages/fill-value.ts';
import { parseFilterPipeline, type FilterSpec } from './messages/filter-pipeline.ts';
import { parseLayout, type Layout } from './messages/layout.ts';
import { FLAG_SHARED, MSG, type ObjectHeader } from './object-header.ts';

export interface DatasetInfo {
  space: Dataspace;
  type: Datatype;
  layout: Layout;
  filters: FilterSpec[];
  fill: FillValue;
}

/** True when the header describes a dataset (has a layout and a dataspace). */
export const isDataset = (oh: ObjectHeader): boolean => oh.messages.some((m) => m.type === MSG.LAYOUT) && oh.messages.some((m) => m.type === MSG.DATASPACE);

export async function datasetInfo(ctx: FileContext, oh: ObjectHeader, what: string, signal?: AbortSignal): Promise<DatasetInfo> {
  const sizes = { o: ctx.sizeOfOffsets, l: ctx.sizeOfLengths };
  const get = (type: number) => oh.messages.find((m) => m.type === type);
  const spaceMsg = get(MSG.DATASPACE)!;
  const typeMsg = get(MSG.DATATYPE);
  if (typeMsg === undefined) throw Errors.invalidFormat(`HDF5 ${what}: dataset without a datatype message`);
  const space = parseDataspace(spaceMsg.data, sizes.l, what);
  const type =
    typeMsg.flags & FLAG_SHARED
      ? await committedType(ctx, sharedAddress(typeMsg.data, sizes.o, what), signal)
      : parseDatatype(new Cursor(typeMsg.data, `${what} datatype`));
  const layout = parseLayout(get(MSG.LAYOUT)!.data, sizes, what);
  const pipe = get(MSG.FILTER_PIPELINE);
  const filters = pipe === undefined ? [] : parseFilterPipeline(pipe.data, what);
  const fillMsg = get(MSG.FILL_VALUE);
  const oldFill = get(MSG.FILL_VALUE_OLD);
  const fill: FillValue = fillMsg ? parseFillValue(fillMsg.data, what) : oldFill ? parseOldFillValue(oldFill.data, what) : { bytes: null, undefined: false };
  check(space, type, layout, what);
  return { space, type, layout, filters, fill };
}

function check(space: Dataspace, type: Datatype, layout: Layout, what: string): void {
  const dims = space.dims ?? [];
  const count = dims.reduce((a, b) => a * b, 1);
  if (!Number.isSafeInteger(count * Math.max(1, type.size))) throw Errors.invalidFormat(`HDF5 ${what}: shape ${dims.join('×')} is too large`);
  if (layout.kind === 'chunked') {
    if (layout.chunk.length !== dims.length) {
      throw Errors.invalidFormat(`HDF5 ${what}: chunk rank ${layout.chunk.length} does not match the dataspace rank ${dims.length}`);
    }
    const bytes = layout.chunk.reduce((a, b) => a * b, type.size);
    if (!Number.isSafeInteger(bytes) || bytes > 2 ** 32) throw Errors.invalidFormat(`HDF5 ${what}: chunk ${layout.chunk.join('×')} is implausibly large`);
  }
  if (layout.kind === 'contiguous' && Number.isFinite(layout.size) && layout.address >= 0 && layout.size < count * type.size) {
    throw Errors.invalidFormat(`HDF5 ${what}: contiguous storage of ${layout.size} bytes is smaller than its ${dims.join('×')} elements`);
  }
  if (layout.kind === 'compact' && layout.data.length < count * type.size) {
    throw Errors.invalidFormat(`HDF5 ${what}: compact storage of ${layout.data.length} bytes is smaller than its ${dims.join('×')} elements`);
  }
}
