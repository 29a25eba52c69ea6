// npx tsx bench/locomo.ts — memory recall on LoCoMo (Maharana et al., ACL 2024), as ../shared/data/locomo-dev/README.md
// says to score it: each conversation stored turn by turn through POST /v1/memories in a project of its own (content
// "Speaker: text", a shared photo's caption appended; kind observation; episode: its session; observed_at: the
// session's date, a second apart per turn), then, once every vector and every term is made, every question with
// evidence asked through POST /v1/memories/search (limit 50, or --limit). Prints turn recall@5 (categories 1-4) and session
// hit@5 (all) by category, for the default ranking and with each channel off in turn (the ablation).
//   --data DIR          the conversations (default ../shared/data/locomo-dev)
//   --only 26,30        some of them
//   --no-ablation       the default ranking alone
//   --port N            the bench's own Neo4j port (default 24687; Temporal on N - 4000, the engines on N + 5, + 6)
//   --keep              keep the stored conversations for the next run with --keep, which asks them again without
//                       storing them (the bench's data folder under .cache holds them and a manifest)
//   --dump FILE         write each question's ranking (its turns) beside its evidence (JSON lines), for reading misses
//   --limit N           the search's limit (default 50; the figures read its first 5)
//   --together          every conversation in one project (ten speakers beside each other, as a team's shared memory
//                       holds many people's conversations): each question is asked of them all, and a turn of another
//                       conversation is never its evidence (its own data folder: --keep keeps it apart)
// Own engines on its ports (or NEO4J_URI). Figures only; it asserts nothing.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { benchTenant, startBench } from './support.js';
import { RECALL_CHANNELS, type RecallChannel } from '../src/memories/graphRecall.js';
import { readBacklog } from '../src/embeddings/status.js';
import { MENTIONS_BACKLOG } from '../src/memories/mentionWorker.js';

const { values: args } = parseArgs({
  options: {
    data: { type: 'string', default: path.resolve(import.meta.dirname, '../../shared/data/locomo-dev') },
    only: { type: 'string' },
    'no-ablation': { type: 'boolean', default: false },
    port: { type: 'string', default: '24687' },
    keep: { type: 'boolean', default: false },
    dump: { type: 'string' },
    limit: { type: 'string', default: '50' },
    together: { type: 'boolean', default: false },
  },
});

interface Turn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
}
interface Qa {
  question: string;
  evidence?: string[];
  category: number;
}
type Conversation = Record<string, unknown> & { qa: Qa[] };

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** "1:56 pm on 8 May, 2023" as UTC. */
function sessionDate(text: string): Date {
  const m = /(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+(\w+),?\s+(\d{4})/i.exec(text);
  if (!m) throw new Error(`unreadable session date: ${text}`);
  const hour = (Number(m[1]) % 12) + (m[3]!.toLowerCase() === 'pm' ? 12 : 0);
  const month = MONTHS.indexOf(m[5]!.toLowerCase().slice(0, 3));
  return new Date(Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2])));
}

interface Stored {
  /** dia_id -> session number */
  session: Map<string, number>;
  /** memory id -> dia_id */
  turnOf: Map<string, string>;
  questions: { q: Qa; evidence: string[] }[];
}

async function store(url: string, key: string, id: string, c: Conversation): Promise<Stored> {
  const session = new Map<string, number>();
  const turnOf = new Map<string, string>();
  const items: { content: string; kind: string; episode: string; observed_at: string; dia: string }[] = [];
  for (let n = 1; `session_${n}_date_time` in c; n += 1) {
    const turns = c[`session_${n}`] as Turn[] | undefined;
    if (!Array.isArray(turns)) continue;
    const at = sessionDate(String(c[`session_${n}_date_time`]));
    turns.forEach((t, i) => {
      session.set(t.dia_id, n);
      const photo = t.blip_caption ? ` [shares a photo: ${t.blip_caption}]` : '';
      items.push({
        content: `${t.speaker}: ${t.text}${photo}`,
        kind: 'observation',
        episode: `locomo-${id}/session-${n}`,
        observed_at: new Date(at.getTime() + i * 1000).toISOString(),
        dia: t.dia_id,
      });
    });
  }
  for (let i = 0; i < items.length; i += 100) {
    const batch = items.slice(i, i + 100);
    const reply = await fetch(`${url}/v1/memories`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ memories: batch.map(({ dia: _dia, ...m }) => m) }),
    });
    const body = (await reply.json()) as { memories?: { id: string }[] };
    if (reply.status !== 201) throw new Error(`store: ${reply.status} ${JSON.stringify(body)}`);
    body.memories!.forEach((m, j) => turnOf.set(m.id, batch[j]!.dia));
  }
  const questions = c.qa.flatMap((q) => {
    const evidence = [...new Set((q.evidence ?? []).flatMap((e) => e.split(/[;,\s]+/)).filter((e) => session.has(e)))];
    return evidence.length > 0 ? [{ q, evidence }] : [];
  });
  return { session, turnOf, questions };
}

interface Scores {
  turn: Map<number, number[]>;
  session: Map<number, boolean[]>;
  dump?: {
    question: string;
    category: number;
    evidence: string[];
    ranks: number[];
    ranking: string[];
    matches: unknown[];
  }[];
}

/** What --keep leaves beside the data: each conversation's key and what its memories are. */
interface Manifest {
  files: string[];
  loaded: { key: string; session: [string, number][]; turnOf: [string, string][]; questions: Stored['questions'] }[];
}

async function ask(
  url: string,
  key: string,
  stored: Stored,
  channels: readonly RecallChannel[] | null,
  into: Scores,
): Promise<void> {
  for (const { q, evidence } of stored.questions) {
    const reply = await fetch(`${url}/v1/memories/search`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: q.question, limit: Number(args.limit), ...(channels ? { channels } : {}) }),
    });
    const body = (await reply.json()) as { nodes?: { id: string; match?: unknown }[] };
    if (reply.status !== 200) throw new Error(`search: ${reply.status} ${JSON.stringify(body)}`);
    // A memory of another conversation (--together) is a turn of none of this one's sessions.
    const turns = body.nodes!.map((n) => stored.turnOf.get(n.id) ?? `elsewhere:${n.id}`);
    into.dump?.push({
      question: q.question,
      category: q.category,
      evidence,
      ranks: evidence.map((e) => turns.indexOf(e)),
      ranking: turns,
      matches: body.nodes!.map((n) => n.match ?? null),
    });
    if (q.category >= 1 && q.category <= 4) {
      const top = new Set(turns.slice(0, 5));
      const share = evidence.filter((e) => top.has(e)).length / evidence.length;
      into.turn.set(q.category, [...(into.turn.get(q.category) ?? []), share]);
    }
    const sessions: number[] = [];
    for (const t of turns) {
      const s = stored.session.get(t) ?? -sessions.length - 1;
      if (!sessions.includes(s)) sessions.push(s);
      if (sessions.length === 5) break;
    }
    const hit = evidence.some((e) => sessions.includes(stored.session.get(e)!));
    into.session.set(q.category, [...(into.session.get(q.category) ?? []), hit]);
  }
}

const mean = (xs: number[]): number => (xs.length === 0 ? NaN : xs.reduce((a, b) => a + b, 0) / xs.length);

function row(label: string, s: Scores): string {
  const allTurn = [...s.turn.values()].flat();
  const allSession = [...s.session.values()].flat().map(Number);
  const cat = (c: number) => mean(s.turn.get(c) ?? []).toFixed(3);
  return (
    `${label.padEnd(22)} ${mean(allTurn).toFixed(3)}   ${mean(allSession).toFixed(3)}    ` +
    `${cat(1)}   ${cat(2)}   ${cat(3)}   ${cat(4)}   ` +
    [1, 2, 3, 4, 5].map((c) => mean((s.session.get(c) ?? []).map(Number)).toFixed(2)).join(' ')
  );
}

const files = fs
  .readdirSync(args.data)
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.replace(/\.json$/, ''))
  .filter((id) => !args.only || args.only.split(',').includes(id))
  .sort();
const port = Number(args.port);
const name = args.together ? 'locomo-together' : 'locomo';
const env = await startBench(name, { neo4j: port, temporal: port - 4000 }, { keep: args.keep });
try {
  const { url } = env.service;
  const graph = env.service.deps.graph;
  const manifestFile = path.join(env.dataDir, 'locomo-manifest.json');
  const kept =
    args.keep && fs.existsSync(manifestFile) ? (JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Manifest) : null;
  if (kept && kept.files.join(',') !== files.join(',')) throw new Error(`--keep: the kept data holds ${kept.files}`);
  const loaded: { key: string; stored: Stored }[] = (kept?.loaded ?? []).map((l) => ({
    key: l.key,
    stored: { session: new Map(l.session), turnOf: new Map(l.turnOf), questions: l.questions },
  }));
  const began = Date.now();
  let turns = 0;
  const shared = args.together && !kept ? await benchTenant(env.service) : null;
  for (const id of kept ? [] : files) {
    const c = JSON.parse(fs.readFileSync(path.join(args.data, `${id}.json`), 'utf8')) as Conversation;
    const tenant = shared ?? (await benchTenant(env.service));
    const stored = await store(url, tenant.key, id, c);
    turns += stored.turnOf.size;
    loaded.push({ key: tenant.key, stored });
    console.log(
      `  conversation ${id}: ${stored.turnOf.size} turns stored (${((Date.now() - began) / 1000).toFixed(0)} s)`,
    );
  }
  const wrote = (Date.now() - began) / 1000;
  if (args.keep && !kept) {
    const manifest: Manifest = {
      files,
      loaded: loaded.map(({ key, stored: st }) => ({
        key,
        session: [...st.session],
        turnOf: [...st.turnOf],
        questions: st.questions,
      })),
    };
    fs.writeFileSync(manifestFile, JSON.stringify(manifest));
  }
  // Every vector (own and context, and the terms') and every term made: the service's two queues empty.
  for (let waited = 0; ; waited += 1) {
    const [vectors, mentions] = await Promise.all([readBacklog(graph), readBacklog(graph, MENTIONS_BACKLOG)]);
    if (vectors.count + mentions.count === 0) break;
    if (waited % 30 === 0) console.log(`  waiting for ${vectors.count} vectors and ${mentions.count} memories' terms…`);
    await new Promise((r) => setTimeout(r, 1000));
  }
  const questions = loaded.reduce((n, l) => n + l.stored.questions.length, 0);
  console.log(
    `LoCoMo: ${files.length} conversations (${files.join(', ')}${args.together ? '; in one project' : ''}), ${turns} turns stored in ${wrote.toFixed(0)} s, ` +
      `vectors and terms made ${((Date.now() - began) / 1000 - wrote).toFixed(0)} s later; ${questions} questions ` +
      `with evidence, memory search limit ${args.limit}`,
  );
  const configs: [string, readonly RecallChannel[] | null][] = [['default (all channels)', null]];
  if (!args['no-ablation']) {
    for (const off of RECALL_CHANNELS) configs.push([`without ${off}`, RECALL_CHANNELS.filter((c) => c !== off)]);
    configs.push(['words + meaning only', ['words', 'meaning']]);
  }
  console.log(
    'ranking                turn R@5 session@5 multi   temporal open    single  session hit@5 by category 1-5',
  );
  for (const [label, channels] of configs) {
    const scores: Scores = { turn: new Map(), session: new Map(), ...(args.dump && !channels ? { dump: [] } : {}) };
    for (const { key, stored } of loaded) await ask(url, key, stored, channels, scores);
    console.log(row(label, scores));
    if (scores.dump) fs.writeFileSync(args.dump!, scores.dump.map((d) => JSON.stringify(d)).join('\n') + '\n');
  }
} finally {
  await env.stop();
}
