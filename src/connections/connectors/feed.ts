// feed: an RSS 2.0 or Atom feed (optionally behind a header token), read with fast-xml-parser
// (a maintained, dependency-light parser; entities are decoded by it, never by regexes). One page:
// a feed is the window the publisher serves.
import { XMLParser } from 'fast-xml-parser';
import { htmlToText } from '../../documents/ingest/html.js';
import { expectOk, authHeader, UpstreamError, type UpstreamResponse } from '../http.js';
import type { FeedConfig, Page, SyncRecord } from '../types.js';
import { checksFrom, isoOrNull, text } from './util.js';
import type { Connector } from './index.js';

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  processEntities: true,
  htmlEntities: true,
  isArray: (name) => name === 'item' || name === 'entry' || name === 'link',
});

type Node = Record<string, unknown>;

/** Text of an element that may carry attributes (#text) or be plain. */
function value(node: unknown): string {
  if (node === null || node === undefined) return '';
  if (typeof node === 'object' && !Array.isArray(node)) return text((node as Node)['#text']);
  return text(node);
}

function atomLink(links: unknown): string | null {
  const list = Array.isArray(links) ? (links as unknown[]) : [];
  const alternate =
    list.find((l) => typeof l === 'object' && l !== null && ((l as Node)['@_rel'] ?? 'alternate') === 'alternate') ??
    list[0];
  if (typeof alternate === 'string') return alternate;
  return alternate && typeof alternate === 'object' ? text((alternate as Node)['@_href']) || null : null;
}

function readable(html: string): string {
  return /<[a-z][\s\S]*>/i.test(html) ? htmlToText(html).text : html.trim();
}

export function parseFeed(xml: string): { title: string; records: SyncRecord[] } {
  let doc: Node;
  try {
    doc = parser.parse(xml) as Node;
  } catch {
    throw new UpstreamError('bad_response', null, 'the feed is not well-formed XML');
  }
  const channel = (doc.rss as Node | undefined)?.channel as Node | undefined;
  if (channel) {
    const items = (channel.item as Node[] | undefined) ?? [];
    return {
      title: value(channel.title),
      records: items.flatMap((item): SyncRecord[] => {
        const link = value((item.link as unknown[] | undefined)?.[0]);
        const id = value(item.guid) || link || value(item.title);
        if (!id) return [];
        const title = value(item.title) || id;
        return [
          {
            external_id: id,
            title,
            text: [`# ${title}`, readable(value(item['content:encoded']) || value(item.description))]
              .filter(Boolean)
              .join('\n\n'),
            updated_at: isoOrNull(value(item.pubDate) || value(item['dc:date'])),
            url: link || null,
          },
        ];
      }),
    };
  }
  const atom = doc.feed as Node | undefined;
  if (atom) {
    const entries = (atom.entry as Node[] | undefined) ?? [];
    return {
      title: value(atom.title),
      records: entries.flatMap((entry): SyncRecord[] => {
        const link = atomLink(entry.link);
        const id = value(entry.id) || link;
        if (!id) return [];
        const title = value(entry.title) || id;
        return [
          {
            external_id: id,
            title,
            text: [`# ${title}`, readable(value(entry.content) || value(entry.summary))].filter(Boolean).join('\n\n'),
            updated_at: isoOrNull(value(entry.updated) || value(entry.published)),
            url: link,
          },
        ];
      }),
    };
  }
  throw new UpstreamError('bad_response', null, 'the document is neither an RSS nor an Atom feed');
}

async function load(
  ctx: Parameters<Connector['check']>[0],
  call: Parameters<Connector['check']>[1],
): Promise<UpstreamResponse> {
  const config = ctx.config as FeedConfig;
  return call(config.url, {
    headers: {
      accept: 'application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.8',
      ...authHeader(ctx.token, config.auth),
    },
  });
}

export const feed: Connector = {
  baseUrl: (config) => (config as FeedConfig).url,

  async check(ctx, call) {
    let response;
    try {
      response = await load(ctx, call);
    } catch (error) {
      if (error instanceof UpstreamError && error.reason !== 'refused')
        return { checks: checksFrom(null), identity: null };
      throw error;
    }
    if (response.status !== 200) return { checks: checksFrom(response.status), identity: null };
    const parsed = parseFeed(response.text);
    return { checks: checksFrom(200), identity: { title: parsed.title || null, items: parsed.records.length } };
  },

  async fetchPage(ctx, _state, call): Promise<Page> {
    const response = await load(ctx, call);
    expectOk(response, ctx.token, 'the feed');
    return { records: parseFeed(response.text).records, next: null };
  },
};
