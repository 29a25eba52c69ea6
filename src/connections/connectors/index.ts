// The built-in connectors by kind. Each knows how to check a token (reachable, authenticated,
// scope) and how to read one page of records; everything else (secrets, staging, cursors) is shared.
import { callUpstream, type CallOptions, type FetchSettings, type UpstreamResponse } from '../http.js';
export { checksFrom, pick, text, isoOrNull } from './util.js';
import type { CheckResult, ConnectionKind, ConnectorConfig, ConnectorContext, Page, PageState } from '../types.js';
import { httpJson } from './httpJson.js';
import { githubIssues } from './githubIssues.js';
import { notionPages } from './notionPages.js';
import { feed } from './feed.js';

export interface Connector {
  /** The URL whose scheme, host and port the secret is bound to. */
  baseUrl(config: ConnectorConfig): string;
  check(ctx: ConnectorContext, call: Caller): Promise<CheckResult>;
  fetchPage(ctx: ConnectorContext, state: PageState, call: Caller): Promise<Page>;
}

export type Caller = (url: string, options?: CallOptions) => Promise<UpstreamResponse>;

export const CONNECTORS: Record<ConnectionKind, Connector> = {
  http_json: httpJson,
  github_issues: githubIssues,
  notion_pages: notionPages,
  feed,
};

/** The origin a connection's secret is bound to: its base URL's scheme, host and port. */
export function boundOrigin(kind: ConnectionKind, config: ConnectorConfig): string {
  return new URL(CONNECTORS[kind].baseUrl(config)).origin;
}

/** Every call of a connector goes to the connection's bound origin, or is refused (src/connections/http.ts). */
export function callerFor(ctx: ConnectorContext, settings: FetchSettings): Caller {
  const origin = boundOrigin(ctx.kind, ctx.config);
  return (url, options = {}) => callUpstream(url, ctx.token, options, settings, origin);
}
