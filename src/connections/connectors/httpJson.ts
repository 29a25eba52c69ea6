// http_json: any REST/JSON API with a header token. Records are read from records_path, identified
// by id_field, and paged by none, Link header, a cursor in the body, or page numbers.
import { expectOk, parseJson, nextLink, authHeader, UpstreamError } from '../http.js';
import type { HttpJsonConfig, Page, SyncRecord } from '../types.js';
import { checksFrom, isoOrNull, pick, text } from './util.js';
import type { Connector } from './index.js';

export function firstUrl(config: HttpJsonConfig, since: string | null): URL {
  const url = new URL(config.path, config.base_url.endsWith('/') ? config.base_url : `${config.base_url}/`);
  if (config.path.startsWith('/'))
    url.pathname = `${new URL(config.base_url).pathname.replace(/\/$/, '')}${config.path}`;
  if (since && config.since_param) url.searchParams.set(config.since_param, since);
  const pagination = config.pagination;
  if (pagination?.page_size && pagination.page_size_param)
    url.searchParams.set(pagination.page_size_param, String(pagination.page_size));
  return url;
}

export function toRecords(config: HttpJsonConfig, body: unknown): SyncRecord[] {
  const items = pick(body, config.records_path);
  if (!Array.isArray(items))
    throw new UpstreamError('bad_response', null, `records_path ${config.records_path ?? '(root)'} is not an array`);
  return items.flatMap((item): SyncRecord[] => {
    const id = pick(item, config.id_field);
    if (id === undefined || id === null || text(id) === '') return [];
    const title = text(pick(item, config.title_field ?? config.id_field));
    return [
      {
        external_id: text(id),
        title: title || text(id),
        text: config.text_field ? text(pick(item, config.text_field)) : JSON.stringify(item, null, 1),
        updated_at: isoOrNull(pick(item, config.updated_field)),
        url: null,
      },
    ];
  });
}

export const httpJson: Connector = {
  baseUrl: (config) => (config as HttpJsonConfig).base_url,

  async check(ctx, call) {
    const config = ctx.config as HttpJsonConfig;
    try {
      const response = await call(firstUrl(config, null).href, { headers: authHeader(ctx.token, config.auth) });
      return { checks: checksFrom(response.status), identity: null };
    } catch (error) {
      if (error instanceof UpstreamError && error.reason !== 'refused')
        return { checks: checksFrom(null), identity: null };
      throw error;
    }
  },

  async fetchPage(ctx, state, call): Promise<Page> {
    const config = ctx.config as HttpJsonConfig;
    const type = config.pagination?.type ?? 'none';
    const url = state?.url ? new URL(state.url) : firstUrl(config, ctx.since);
    const param = config.pagination?.param ?? (type === 'page' ? 'page' : 'cursor');
    const page = state?.page ?? 1;
    if (type === 'cursor' && state?.cursor) url.searchParams.set(param, state.cursor);
    if (type === 'page') url.searchParams.set(param, String(page));
    const response = await call(url.href, { headers: authHeader(ctx.token, config.auth) });
    expectOk(response, ctx.token, 'the API');
    const body = parseJson(response, ctx.token, 'the API');
    const records = toRecords(config, body);
    if (type === 'link_header') {
      const next = nextLink(response);
      return { records, next: next ? { url: next } : null };
    }
    if (type === 'cursor') {
      const cursor = text(pick(body, config.pagination?.cursor_path ?? 'next_cursor'));
      return { records, next: cursor ? { cursor } : null };
    }
    if (type === 'page') {
      const size = config.pagination?.page_size;
      const more = records.length > 0 && (size === undefined || records.length >= size);
      return { records, next: more ? { page: page + 1 } : null };
    }
    return { records, next: null };
  },
};
