// notion_pages: identity from /v1/users/me, then pages found by search sorted by last edit
// (oldest first, so a cursor by last_edited_time never skips), each read as the text of its blocks.
import { expectOk, parseJson, UpstreamError } from '../http.js';
import type { NotionPagesConfig, Page, SyncRecord } from '../types.js';
import { checksFrom, isoOrNull, text } from './util.js';
import type { Caller, Connector } from './index.js';

export const NOTION_API = 'https://api.notion.com';
const MAX_BLOCK_PAGES = 20;

function base(config: NotionPagesConfig): string {
  return (config.base_url ?? NOTION_API).replace(/\/$/, '');
}

function headers(config: NotionPagesConfig, token: string | null): Record<string, string> {
  return {
    'notion-version': config.notion_version ?? '2022-06-28',
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  };
}

interface RichText {
  plain_text?: string;
}
interface NotionPage {
  id?: string;
  url?: string;
  last_edited_time?: string;
  properties?: Record<string, { type?: string; title?: RichText[] }>;
}
interface Block {
  type?: string;
  [type: string]: unknown;
}

function plain(rich: RichText[] | undefined): string {
  return (rich ?? []).map((r) => r.plain_text ?? '').join('');
}

function titleOf(page: NotionPage): string {
  const property = Object.values(page.properties ?? {}).find((p) => p.type === 'title');
  return plain(property?.title) || 'Untitled';
}

/** The page's text: the rich text of each of its top-level blocks, one line each. */
async function pageText(
  config: NotionPagesConfig,
  token: string | null,
  pageId: string,
  call: Caller,
  heartbeat: () => void,
): Promise<string> {
  const lines: string[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < MAX_BLOCK_PAGES; i += 1) {
    const url = new URL(`${base(config)}/v1/blocks/${encodeURIComponent(pageId)}/children`);
    url.searchParams.set('page_size', '100');
    if (cursor) url.searchParams.set('start_cursor', cursor);
    const response = await call(url.href, { headers: headers(config, token) });
    expectOk(response, token, 'Notion');
    const body = parseJson(response, token, 'Notion') as {
      results?: Block[];
      has_more?: boolean;
      next_cursor?: string | null;
    };
    for (const block of body.results ?? []) {
      const content = block.type ? (block[block.type] as { rich_text?: RichText[] } | undefined) : undefined;
      const line = plain(content?.rich_text);
      if (line) lines.push(line);
    }
    heartbeat();
    if (!body.has_more || !body.next_cursor) break;
    cursor = body.next_cursor;
  }
  return lines.join('\n');
}

export const notionPages: Connector = {
  baseUrl: (config) => base(config as NotionPagesConfig),

  async check(ctx, call) {
    const config = ctx.config as NotionPagesConfig;
    try {
      const response = await call(`${base(config)}/v1/users/me`, { headers: headers(config, ctx.token) });
      if (response.status !== 200) return { checks: checksFrom(response.status), identity: null };
      const me = parseJson(response, ctx.token, 'Notion') as { id?: string; name?: string; type?: string };
      return { checks: checksFrom(200), identity: { id: me.id ?? null, name: me.name ?? null, type: me.type ?? null } };
    } catch (error) {
      if (error instanceof UpstreamError && error.reason !== 'refused')
        return { checks: checksFrom(null), identity: null };
      throw error;
    }
  },

  async fetchPage(ctx, state, call): Promise<Page> {
    const config = ctx.config as NotionPagesConfig;
    const response = await call(`${base(config)}/v1/search`, {
      method: 'POST',
      headers: headers(config, ctx.token),
      json: {
        filter: { property: 'object', value: 'page' },
        sort: { direction: 'ascending', timestamp: 'last_edited_time' },
        page_size: 100,
        ...(state?.cursor ? { start_cursor: state.cursor } : {}),
      },
    });
    expectOk(response, ctx.token, 'Notion');
    const body = parseJson(response, ctx.token, 'Notion') as {
      results?: NotionPage[];
      has_more?: boolean;
      next_cursor?: string | null;
    };
    const records: SyncRecord[] = [];
    for (const page of body.results ?? []) {
      if (!page.id) continue;
      const edited = isoOrNull(page.last_edited_time);
      // Search cannot filter by time: pages not edited since the cursor are skipped before their blocks are read.
      if (ctx.since && edited && edited < ctx.since) continue;
      const title = titleOf(page);
      const content = await pageText(config, ctx.token, page.id, call, ctx.heartbeat);
      records.push({
        external_id: page.id,
        title,
        text: [`# ${title}`, content].filter(Boolean).join('\n\n'),
        updated_at: edited,
        url: page.url ?? null,
      });
    }
    return { records, next: body.has_more && body.next_cursor ? { cursor: text(body.next_cursor) } : null };
  },
};
