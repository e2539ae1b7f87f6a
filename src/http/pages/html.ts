/** Minimal HTML helpers for the server's own pages (no template engine needed for these few). */
import { readFileSync } from 'node:fs';

/** The pages' shared stylesheet (also served as /static/rastile.css, which the viewer links). */
const BASE_CSS = readFileSync(new URL('../static/rastile.css', import.meta.url), 'utf8').replace(/\s*\n\s*/g, '');

export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

export function page(title: string, body: string, head = ''): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="/favicon.ico">
<style>${BASE_CSS}</style>
${head}</head><body>${body}</body></html>`;
}

/** JSON shown in a page, escaped. */
export const jsonBlock = (data: unknown): string => `<pre>${escapeHtml(JSON.stringify(data, null, 2))}</pre>`;

export interface PageLink {
  href: string;
  label: string;
}

/** A titled page listing links (optionally after an intro paragraph); every value escaped. */
export function linkListPage(title: string, items: readonly PageLink[], intro?: string): string {
  const list = items.map((l) => `<li><a href="${escapeHtml(l.href)}">${escapeHtml(l.label)}</a></li>`).join('');
  return page(title, `<h1>${escapeHtml(title)}</h1>${intro === undefined ? '' : `<p>${escapeHtml(intro)}</p>`}<ul>${list}</ul>`);
}
