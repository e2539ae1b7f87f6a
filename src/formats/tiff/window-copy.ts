/**
 * Copy the part of one decoded block plane that falls inside a window into the window's array,
 * row by row (one `set` per row, or a single `set` when block rows and window rows coincide).
 */
import type { TypedArray } from '../../dtype.ts';

export interface WindowRect {
  col: number;
  row: number;
  width: number;
  height: number;
}

/**
 * `plane` holds `rows` rows of `blockWidth` samples whose top-left pixel is (`x0`, `y0`) in the
 * level; `levelWidth` clips blocks that overhang the right edge.
 */
export function copyBlockIntoWindow(plane: TypedArray, blockWidth: number, rows: number, x0: number, y0: number, win: WindowRect, dst: TypedArray): void {
  const left = Math.max(win.col, x0);
  const right = Math.min(win.col + win.width, x0 + blockWidth);
  const top = Math.max(win.row, y0);
  const bottom = Math.min(win.row + win.height, y0 + rows);
  if (right <= left || bottom <= top) return;
  const len = right - left;
  let src = (top - y0) * blockWidth + (left - x0);
  let at = (top - win.row) * win.width + (left - win.col);
  if (len === win.width && len === blockWidth) {
    const n = (bottom - top) * len;
    dst.set(plane.subarray(src, src + n), at);
    return;
  }
  for (let y = top; y < bottom; y++, src += blockWidth, at += win.width) {
    dst.set(plane.subarray(src, src + len), at);
  }
}
