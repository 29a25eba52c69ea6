// github_issues: identity from /user, then the repository's issues updated since the cursor,
// oldest update first, 100 a page, following the Link header; pull requests are skipped.
import { expectOk, parseJson, nextLink, UpstreamError } from '../http.js';
import type { GithubIssuesConfig, Page, SyncRecord } from '../types.js';
import { checksFrom, isoOrNull, text } from './util.js';
import type { Connector } from './index.js';

export const GITHUB_API = 'https://api.github.com';

function base(config: GithubIssuesConfig): string {
  return (config.base_url ?? GITHUB_API).replace(/\/$/, '');
}

function headers(token: string | null): Record<string, string> {
  return {
    accept: 'application/vnd.github+json',
    'x-github-api-version': '2022-11-28',
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  };
}

interface Issue {
  number?: number;
  title?: string;
  body?: string | null;
  html_url?: string;
  updated_at?: string;
  state?: string;
  labels?: ({ name?: string } | string)[];
  pull_request?: unknown;
}

export const githubIssues: Connector = {
  baseUrl: (config) => base(config as GithubIssuesConfig),

  async check(ctx, call) {
    const config = ctx.config as GithubIssuesConfig;
    let user;
    try {
      user = await call(`${base(config)}/user`, { headers: headers(ctx.token) });
    } catch (error) {
      if (error instanceof UpstreamError && error.reason !== 'refused')
        return { checks: checksFrom(null), identity: null };
      throw error;
    }
    if (user.status !== 200) return { checks: checksFrom(user.status), identity: null };
    const me = parseJson(user, ctx.token, 'GitHub') as { login?: string; id?: number };
    const repo = await call(`${base(config)}/repos/${config.repo}`, { headers: headers(ctx.token) });
    const checks = checksFrom(user.status);
    checks[2] = { name: 'scope', ok: repo.status === 200, http_status: repo.status };
    return { checks, identity: { login: me.login ?? null, id: me.id ?? null } };
  },

  async fetchPage(ctx, state, call): Promise<Page> {
    const config = ctx.config as GithubIssuesConfig;
    let url = state?.url;
    if (!url) {
      const first = new URL(`${base(config)}/repos/${config.repo}/issues`);
      first.searchParams.set('state', 'all');
      if (ctx.since) first.searchParams.set('since', ctx.since);
      first.searchParams.set('sort', 'updated');
      first.searchParams.set('direction', 'asc');
      first.searchParams.set('per_page', '100');
      url = first.href;
    }
    const response = await call(url, { headers: headers(ctx.token) });
    expectOk(response, ctx.token, 'GitHub');
    const issues = parseJson(response, ctx.token, 'GitHub');
    if (!Array.isArray(issues))
      throw new UpstreamError('bad_response', response.status, 'GitHub did not answer a list of issues');
    const records = (issues as Issue[])
      .filter((i) => i.pull_request === undefined && typeof i.number === 'number')
      .map((i): SyncRecord => {
        const labels = (i.labels ?? []).map((l) => (typeof l === 'string' ? l : (l.name ?? ''))).filter(Boolean);
        return {
          external_id: `${config.repo}#${i.number}`,
          title: text(i.title) || `${config.repo}#${i.number}`,
          text: [
            `# ${text(i.title)}`,
            `State: ${text(i.state)}${labels.length ? ` · Labels: ${labels.join(', ')}` : ''}`,
            text(i.body),
          ]
            .filter(Boolean)
            .join('\n\n'),
          updated_at: isoOrNull(i.updated_at),
          url: i.html_url ?? null,
        };
      });
    const next = nextLink(response);
    return { records, next: next ? { url: next } : null };
  },
};
