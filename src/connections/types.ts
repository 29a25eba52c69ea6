// The shared vocabulary of the Connections area: kinds, configurations, records and pages.
export const CONNECTION_KINDS = ['http_json', 'github_issues', 'notion_pages', 'feed'] as const;
export type ConnectionKind = (typeof CONNECTION_KINDS)[number];

export const CONNECTION_STATUSES = ['untested', 'active', 'error', 'paused', 'revoked'] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];
/**
 * Why a connection is in error or paused: the upstream refused its token (auth_failed,
 * forbidden_scope) or could not be reached; or the key its scheduled syncs act as was revoked
 * (key_revoked) or no longer holds connections:sync for its project (key_lacks_scope).
 */
export const STATUS_REASONS = [
  'auth_failed',
  'unreachable',
  'forbidden_scope',
  'key_revoked',
  'key_lacks_scope',
] as const;
export type StatusReason = (typeof STATUS_REASONS)[number];
export const SYNC_STATUSES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export type SyncStatus = (typeof SYNC_STATUSES)[number];

export interface AuthConfig {
  header?: string;
  scheme?: string;
}

export interface HttpJsonConfig {
  base_url: string;
  path: string;
  auth?: AuthConfig;
  records_path?: string;
  id_field: string;
  updated_field?: string;
  title_field?: string;
  text_field?: string;
  since_param?: string;
  pagination?: {
    type: 'none' | 'link_header' | 'cursor' | 'page';
    param?: string;
    cursor_path?: string;
    page_size?: number;
    page_size_param?: string;
  };
}

export interface GithubIssuesConfig {
  repo: string;
  base_url?: string;
}

export interface NotionPagesConfig {
  base_url?: string;
  notion_version?: string;
}

export interface FeedConfig {
  url: string;
  auth?: AuthConfig;
}

export type ConnectorConfig = HttpJsonConfig | GithubIssuesConfig | NotionPagesConfig | FeedConfig;

/** One upstream record as it lands in the graph. */
export interface SyncRecord {
  external_id: string;
  title: string;
  text: string;
  updated_at: string | null;
  url: string | null;
}

/** Where the next page is (opaque to everything but its connector); null: the first page. */
export type PageState = { url?: string; cursor?: string; page?: number } | null;

export interface Page {
  records: SyncRecord[];
  next: PageState;
}

export type CheckName = 'reachable' | 'authenticated' | 'scope';

export interface CheckResult {
  checks: { name: CheckName; ok: boolean; http_status: number | null }[];
  identity: Record<string, string | number | null> | null;
}

/** What a sync or a test reads of a connection: never the sealed secret, only the opened token. */
export interface ConnectorContext {
  kind: ConnectionKind;
  config: ConnectorConfig;
  token: string | null;
  since: string | null;
  heartbeat(): void;
}
