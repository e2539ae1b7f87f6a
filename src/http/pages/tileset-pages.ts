/** HTML renderings of the OGC tile set documents (f=html). */
import { escapeHtml, jsonBlock, page } from './html.ts';

interface Link {
  href: string;
  rel: string;
  title?: string;
}
interface TileSetDoc {
  title: string;
  links: Link[];
  /** Why the list shows it where it does (HTML only). */
  note?: string;
}

const linkList = (links: Link[]): string =>
  `<ul>${links.map((l) => `<li><a href="${escapeHtml(l.href)}">${escapeHtml(l.title ?? l.rel)}</a> <small>(${escapeHtml(l.rel)})</small></li>`).join('')}</ul>`;

export function tileSetListPage(data: { tilesets: TileSetDoc[] }): string {
  const items = data.tilesets
    .map((t) => `<h2>${escapeHtml(t.title)}</h2>${t.note === undefined ? '' : `<p class="note">${escapeHtml(t.note)}</p>`}${linkList(t.links)}`)
    .join('');
  return page('Tilesets', `<h1>Tilesets</h1>${items}`);
}

export function tileSetPage(data: TileSetDoc): string {
  return page(data.title, `<h1>${escapeHtml(data.title)}</h1>${linkList(data.links)}${jsonBlock(data)}`);
}
