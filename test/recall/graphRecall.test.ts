// Recall that uses the graph (issue 56): memory search's channels beyond words and meaning (context, episode, hops,
// time), the meaning floor, rare words and the channels a request names, each on a small corpus of its own in a fresh
// tenant, against the real Neo4j, embedding engine and mention worker.
import assert from 'node:assert/strict';
import { newTenant, type Reply, type Tenant } from '../support/api.js';
import { waitForEmbeddings } from '../support/embeddings.js';
import { harness } from '../support/harness.js';
import { waitForMentions, waitForTermVectors } from '../support/mentions.js';
import type { Match } from '../../src/search/hybrid.js';
import { readServerTiming } from '../../src/shared/serverTiming.js';
import { askedOfSpeakers } from '../../src/memories/speakers.js';

interface Written {
  content: string;
  episode?: string;
  observed_at?: string;
}

interface Found {
  id: string;
  properties: { content: string; episode?: string | null };
  match: Match;
}

/** Writes the memories in one batch (applied), waits for their vectors and terms, and returns their ids in order. */
async function load(t: Tenant, memories: Written[]): Promise<string[]> {
  const r = await t.post('/v1/memories', { memories });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  const ids = (r.body.memories as { id: string }[]).map((m) => m.id);
  assert.equal(ids.length, memories.length);
  await waitForEmbeddings(t.projectId);
  await waitForMentions(t.projectId);
  return ids;
}

async function search(t: Tenant, body: Record<string, unknown>): Promise<Reply> {
  const r = await t.post('/v1/memories/search', { limit: 10, ...body });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r;
}

const nodesOf = (r: Reply): Found[] => r.body.nodes as Found[];

/** The answer as a failure message reads it: each node's place, text and match. */
const shown = (r: Reply): string =>
  `channels ${JSON.stringify(r.body.channels)} time ${JSON.stringify(r.body.time)}\n` +
  nodesOf(r)
    .map((n, i) => `${i + 1}. ${n.properties.content}\n   ${JSON.stringify(n.match)}`)
    .join('\n');

/** Where the memory stands in the answer, from 1; null when it is not there. */
const placeOf = (r: Reply, id: string): number | null => {
  const at = nodesOf(r).findIndex((n) => n.id === id);
  return at < 0 ? null : at + 1;
};

/** A rank a channel gave: a number from 1 (a match without the channel has none, or null). */
const ranked = (rank: number | null | undefined, r: Reply): number => {
  assert.ok(typeof rank === 'number' && rank >= 1, shown(r));
  return rank;
};

/** The phases the answer's Server-Timing names, with their durations. */
const phasesOf = (r: Reply): Map<string, number> => readServerTiming(r.headers.get('server-timing') ?? '');

const matchOf = (r: Reply, id: string): Match => {
  const node = nodesOf(r).find((n) => n.id === id);
  assert.ok(node, `not in the answer:\n${shown(r)}`);
  return node.match;
};

async function cypher<T>(query: string, params: Record<string, unknown>): Promise<T[]> {
  return (await harness().service.deps.graph.read((tx) => tx.runText(query, params))) as T[];
}

const DAY = 86_400_000;
const isoDaysAgo = (days: number): string => new Date(Date.now() - days * DAY).toISOString();

describe('graph recall: memory search by channels (real Neo4j, embedding engine and mention worker)', function () {
  this.timeout(300_000);

  it("context: a turn that answers only with its episode's turn before it is found by its context vector", async () => {
    const t = await newTenant(0);
    const at = (minute: number) => `2024-05-08T13:${String(minute).padStart(2, '0')}:00.000Z`;
    const ids = await load(t, [
      { content: 'Ana: Did you see the new pottery studio downtown?', episode: 'chat-1', observed_at: at(1) },
      { content: 'Ben: Yes, I signed up there yesterday!', episode: 'chat-1', observed_at: at(2) },
      { content: 'Ana: Nice, tell me how the first class goes.', episode: 'chat-1', observed_at: at(3) },
      { content: 'Cara: The quarterly budget review moved to Thursday.', episode: 'work-1', observed_at: at(4) },
      { content: 'Dan: Yes, I signed the contract with the new supplier.', episode: 'work-1', observed_at: at(5) },
      { content: 'Eve: My sister bought a used bicycle last weekend.', episode: 'chat-2', observed_at: at(6) },
      { content: 'Finn: The library is closed for renovation until June.', episode: 'chat-2', observed_at: at(7) },
      { content: 'The office plants are watered on Fridays.', observed_at: at(8) },
    ]);
    const signedUp = ids[1]!;
    // A memory of an episode has a context vector (the turn before it and its own text); one of no episode has none.
    const vectors = await cypher<{ id: string; context: boolean }>(
      'MATCH (m:Memory) WHERE m.id IN $ids RETURN m.id AS id, m.context_embedding IS NOT NULL AS context',
      { ids: [signedUp, ids[7]] },
    );
    assert.deepEqual(Object.fromEntries(vectors.map((v) => [v.id, v.context])), { [signedUp]: true, [ids[7]!]: false });

    const r = await search(t, { query: 'Who signed up for the pottery studio?' });
    const place = placeOf(r, signedUp);
    assert.ok(place !== null && place <= 3, `"Ben: Yes, I signed up there yesterday!" not in the top 3:\n${shown(r)}`);
    const m = matchOf(r, signedUp);
    ranked(m.context_rank, r);
    assert.ok(r.body.channels.includes('context'), shown(r));
    // It is the turn before that names the pottery studio: the context vector is nearer the question than its own.
    assert.ok(m.context_similarity! > (m.similarity ?? -1), shown(r));
    // The look-alike that shares "Yes, I signed ... the new" but not the topic ranks below it, if at all.
    const lookAlike = placeOf(r, ids[4]!);
    assert.ok(lookAlike === null || lookAlike > place, shown(r));
    // Asked in words the turn does not hold, it is found by its context alone.
    const joined = await search(t, { query: 'Who has joined the pottery studio?' });
    const at2 = placeOf(joined, signedUp);
    assert.ok(at2 !== null && at2 <= 3, `"Ben: Yes, I signed up there yesterday!" not in the top 3:\n${shown(joined)}`);
    assert.equal(matchOf(joined, signedUp).lexical_rank, null, shown(joined));
    ranked(matchOf(joined, signedUp).context_rank, joined);
  });

  it('hops: a question naming a person reaches what that person said in any episode, ranked above what the walk reaches otherwise', async () => {
    const t = await newTenant(0);
    // Caroline speaks in more than three memories, so her name is no rare word (which would put all her lines first
    // by itself): who said a line is read by the hops alone, from the speaker terms the mention worker wrote.
    const ids = await load(t, [
      { content: 'Caroline: Hey Mel, I finally finished my counseling course!', episode: 'session-1' },
      { content: "Melanie: That's wonderful! I painted a sunset over the lake this week.", episode: 'session-1' },
      { content: 'Caroline: I want to work with young people who need support.', episode: 'session-1' },
      {
        content: 'Melanie: I have always dreamed of travelling to Peru and hiking to Machu Picchu.',
        episode: 'session-2',
      },
      { content: 'Caroline: My dream is to see the cherry blossoms in Japan one day.', episode: 'session-2' },
      { content: 'Caroline: My dog Biscuit loves the beach near our house.', episode: 'session-3' },
      { content: 'Caroline: I went to a support group meeting on Tuesday.', episode: 'session-3' },
      { content: 'Melanie: My kids started swimming lessons this summer.', episode: 'session-3' },
    ]);
    const answer = ids[4]!;
    const lookAlike = ids[3]!;
    // The answer's terms: Caroline is who said it.
    const terms = await cypher<{ key: string; kind: string; role: string }>(
      'MATCH (:Memory {id: $id})-[r:MENTIONS]->(t:Term) RETURN t.key AS key, t.kind AS kind, r.role AS role',
      { id: answer },
    );
    assert.ok(
      terms.some((x) => x.key === 'caroline' && x.role === 'speaker' && x.kind === 'person'),
      JSON.stringify(terms),
    );
    assert.ok(!terms.some((x) => x.key === 'melanie'), JSON.stringify(terms));

    const r = await search(t, { query: 'Where does Caroline dream of travelling?' });
    assert.ok(r.body.channels.includes('hops'), shown(r));
    const place = placeOf(r, answer);
    assert.ok(place !== null && place <= 3, `Caroline's dream not in the top 3:\n${shown(r)}`);
    ranked(matchOf(r, answer).graph_rank, r);
    const other = placeOf(r, lookAlike);
    assert.ok(other === null || other > place, `Melanie's look-alike over Caroline's own answer:\n${shown(r)}`);
    // Within the hops, what Caroline said (she is its speaker) weighs more than anything reached otherwise (a second
    // hop through the best hits' rare terms): each of her lines ranks above every line of someone else.
    const hops = nodesOf(r).filter((n) => n.match.graph_rank !== null);
    const hers = hops.filter((n) => n.properties.content.startsWith('Caroline:')).map((n) => n.match.graph_rank!);
    const others = hops.filter((n) => !n.properties.content.startsWith('Caroline:')).map((n) => n.match.graph_rank!);
    assert.ok(hers.length >= 2, shown(r));
    assert.ok(Math.max(...hers) < Math.min(Infinity, ...others), shown(r));
    const episodes = new Set(
      hops.filter((n) => n.properties.content.startsWith('Caroline:')).map((n) => n.properties.episode),
    );
    assert.ok(episodes.size >= 2, `the hops reached Caroline in one episode only:\n${shown(r)}`);
    // Without the hops nothing is ranked by the graph.
    const without = await search(t, {
      query: 'Where does Caroline dream of travelling?',
      channels: ['words', 'meaning', 'context', 'episode', 'time'],
    });
    assert.ok(!without.body.channels.includes('hops'), shown(without));
    for (const n of nodesOf(without)) assert.equal(n.match.graph_rank, null, shown(without));
  });

  it("hops by meaning: a question asking for several things of a kind reaches the memories naming them, through the terms' vectors", async () => {
    const t = await newTenant(0);
    const ids = await load(t, [
      { content: 'Melanie: I played my violin at the spring recital last night.', episode: 'session-1' },
      { content: 'Caroline: I adopted a puppy from the shelter on Saturday.', episode: 'session-1' },
      { content: 'Melanie: We went camping at the beach with the kids.', episode: 'session-2' },
      { content: "Melanie: I've started taking clarinet lessons again.", episode: 'session-3' },
      { content: 'Caroline: I am reading a book about adoption agencies.', episode: 'session-3' },
      { content: 'Melanie: The pottery class was so relaxing today.', episode: 'session-4' },
      { content: 'Caroline: The support group meets every Tuesday evening.', episode: 'session-4' },
    ]);
    const [violin, clarinet] = [ids[0]!, ids[3]!];
    // The mention worker made the terms; each term's name was embedded by the embedding worker.
    await waitForTermVectors(t.projectId);
    const terms = await cypher<{ key: string; vector: boolean }>(
      'MATCH (t:Term {project_id: $p}) WHERE t.key IN $keys RETURN t.key AS key, t.embedding IS NOT NULL AS vector',
      { p: t.projectId, keys: ['violin', 'clarinet'] },
    );
    assert.deepEqual(terms.map((x) => [x.key, x.vector]).sort(), [
      ['clarinet', true],
      ['violin', true],
    ]);

    // Neither memory says "instrument", and the question names no one (so no hop starts from a name): the walk from
    // the terms nearest the question reaches both, and is what ranks them in the graph.
    const r = await search(t, { query: 'Which instruments are played?' });
    assert.ok(r.body.channels.includes('hops'), shown(r));
    assert.ok(phasesOf(r).has('walk'), shown(r));
    for (const id of [violin, clarinet]) {
      const place = placeOf(r, id);
      assert.ok(place !== null && place <= 3, `an instrument not in the top 3:\n${shown(r)}`);
      ranked(matchOf(r, id).graph_rank, r);
    }
    // A question about one thing is not walked by meaning (on one thing the walk ranks its topic over the answer).
    const one = await search(t, { query: 'What did Melanie play at the spring recital?' });
    assert.ok(!phasesOf(one).has('walk'), shown(one));
    // Without the hops nothing is ranked by the graph.
    const without = await search(t, {
      query: 'Which instruments are played?',
      channels: ['words', 'meaning', 'context', 'episode', 'time'],
    });
    for (const n of nodesOf(without)) assert.equal(n.match.graph_rank, null, shown(without));
  });

  it("hops by meaning: a term made after the project's term vectors were held is walked from at the next question", async () => {
    const t = await newTenant(0);
    await load(t, [
      { content: 'Melanie: I played my violin at the spring recital last night.', episode: 'session-1' },
      { content: 'Caroline: I adopted a puppy from the shelter on Saturday.', episode: 'session-1' },
      { content: 'Melanie: We went camping at the beach with the kids.', episode: 'session-2' },
    ]);
    await waitForTermVectors(t.projectId);
    const question = { query: 'Which instruments are played?' };
    // The first list question holds the project's term vectors in the service (src/memories/termVectors.ts).
    const first = await search(t, question);
    assert.ok(phasesOf(first).has('walk'), shown(first));
    const [cello] = await load(t, [{ content: 'Caroline: I practised the cello for an hour.', episode: 'session-3' }]);
    await waitForTermVectors(t.projectId);
    // The held vectors no longer are the project's (a term, `cello`, was made and given a vector since): the walk
    // reads them again, so the new memory is reached from its term as a fresh process would reach it.
    const again = await search(t, question);
    ranked(matchOf(again, cello!).graph_rank, again);
  });

  it('time: "last week" is read as a window before the as_of date, and what was observed in it ranks over the same topic observed earlier', async () => {
    const t = await newTenant(0);
    const ids = await load(t, [
      {
        content: 'Caroline: I spent Saturday at a pottery workshop.',
        episode: 'week-10',
        observed_at: '2024-03-06T18:00:00.000Z',
      },
      {
        content: 'Caroline: I spent Saturday at a painting workshop.',
        episode: 'week-3',
        observed_at: '2024-01-17T18:00:00.000Z',
      },
      { content: 'Melanie: I repaired the garden fence.', episode: 'week-3', observed_at: '2024-01-17T18:05:00.000Z' },
      {
        content: 'Melanie: The kids had a school concert.',
        episode: 'week-10',
        observed_at: '2024-03-06T18:05:00.000Z',
      },
      {
        content: 'Jon: The dance studio opened a second room.',
        episode: 'week-6',
        observed_at: '2024-02-07T18:00:00.000Z',
      },
    ]);
    const inWindow = ids[0]!;
    const before = ids[1]!;
    // 2024-03-13 is a Wednesday: last week is Monday 4 March to Monday 11 March (UTC).
    const r = await search(t, { query: 'What did Caroline do last week?', as_of: '2024-03-13T12:00:00.000Z' });
    assert.deepEqual(r.body.time, [
      { expression: 'last week', from: '2024-03-04T00:00:00.000Z', to: '2024-03-11T00:00:00.000Z' },
    ]);
    assert.ok(r.body.channels.includes('time'), shown(r));
    const place = placeOf(r, inWindow);
    assert.ok(place !== null && place <= 2, `the pottery workshop of last week not in the top 2:\n${shown(r)}`);
    ranked(matchOf(r, inWindow).time_rank, r);
    const earlier = placeOf(r, before);
    assert.ok(earlier === null || earlier > place, `January's workshop over last week's:\n${shown(r)}`);
    if (earlier !== null) assert.equal(matchOf(r, before).time_rank, null, shown(r));
    // The same question as of 24 January: last week is then the week of January's workshop.
    const later = await search(t, { query: 'What did Caroline do last week?', as_of: '2024-01-24T12:00:00.000Z' });
    assert.deepEqual(later.body.time, [
      { expression: 'last week', from: '2024-01-15T00:00:00.000Z', to: '2024-01-22T00:00:00.000Z' },
    ]);
    const laterPlace = placeOf(later, before);
    assert.ok(laterPlace !== null && laterPlace <= 2, shown(later));
    ranked(matchOf(later, before).time_rank, later);
    const pottery = placeOf(later, inWindow);
    assert.ok(pottery === null || pottery > laterPlace, shown(later));
  });

  it('a hybrid search answers where its time went: Server-Timing names each phase recall ran', async () => {
    const t = await newTenant(0);
    await load(t, [
      { content: 'Caroline: I signed up for a pottery class.', episode: 'talk-1', observed_at: isoDaysAgo(8) },
      { content: 'Melanie: Good luck with the class!', episode: 'talk-1', observed_at: isoDaysAgo(8) },
    ]);
    const r = await search(t, { query: 'What did Caroline sign up for last week?' });
    assert.ok(r.body.channels.includes('time') && r.body.channels.includes('hops'), shown(r));
    const header = r.headers.get('server-timing') ?? '';
    const phases = phasesOf(r);
    // `speakers`: the question names a person, so whether they speak in the project is read before the embedding.
    for (const name of [
      'auth',
      'speakers',
      'embed',
      'words',
      'episodes',
      'rare',
      'vector',
      'context',
      'time',
      'rank',
      'answer',
    ])
      assert.ok(phases.get(name)! >= 0, `no ${name} in Server-Timing: ${header}`);
    // A lexical search runs none of meaning's phases.
    const lexical = await search(t, { query: 'pottery', mode: 'lexical' });
    assert.doesNotMatch(lexical.headers.get('server-timing') ?? '', /embed|vector/);
  });

  it('time: without as_of, "last week" is anchored at the time of the question', async () => {
    const t = await newTenant(0);
    const ids = await load(t, [
      { content: 'Caroline: I joined a hiking club and walked twenty kilometres.', observed_at: isoDaysAgo(7) },
      { content: 'Caroline: I joined a chess club and played four games.', observed_at: isoDaysAgo(60) },
      { content: 'Melanie: The new bakery on the corner sells great bread.', observed_at: isoDaysAgo(30) },
    ]);
    const r = await search(t, { query: 'What did Caroline do last week?' });
    assert.equal(r.body.time.length, 1, shown(r));
    const window = r.body.time[0] as { expression: string; from: string; to: string };
    assert.equal(window.expression, 'last week');
    // A Monday-to-Monday week holding the day a week ago.
    assert.equal(Date.parse(window.to) - Date.parse(window.from), 7 * DAY);
    assert.equal(new Date(window.from).getUTCDay(), 1);
    assert.ok(Date.parse(window.from) <= Date.now() - 7 * DAY && Date.now() - 7 * DAY < Date.parse(window.to));
    assert.equal(placeOf(r, ids[0]!), 1, shown(r));
    ranked(matchOf(r, ids[0]!).time_rank, r);
    const chess = placeOf(r, ids[1]!);
    if (chess !== null) assert.equal(matchOf(r, ids[1]!).time_rank, null, shown(r));
  });

  it("episode: a question on a conversation's whole text finds the turn of that conversation that answers it", async () => {
    const t = await newTenant(0);
    const at = (minute: number) => `2024-07-01T09:${String(minute).padStart(2, '0')}:00.000Z`;
    const ids = await load(t, [
      {
        content: "Ana: Let's finally plan our camping trip to Yosemite for August.",
        episode: 'trip',
        observed_at: at(1),
      },
      { content: "Ben: I'll bring the tent and the sleeping bags.", episode: 'trip', observed_at: at(2) },
      { content: "Ana: Great, I'll book the campsite and buy the food.", episode: 'trip', observed_at: at(3) },
      { content: "Cara: This month's book club pick is a mystery novel.", episode: 'books', observed_at: at(4) },
      { content: "Dan: I'll bring snacks to the meeting.", episode: 'books', observed_at: at(5) },
      { content: 'Cara: See you Thursday at the library.', episode: 'books', observed_at: at(6) },
      { content: 'Eve: The quarterly report is due on Friday.', episode: 'work', observed_at: at(7) },
      { content: "Finn: I'll bring the slides to the review.", episode: 'work', observed_at: at(8) },
    ]);
    const tent = ids[1]!;
    const trip = new Set(ids.slice(0, 3));
    const r = await search(t, { query: 'Who is bringing the tent on the Yosemite camping trip?' });
    assert.ok(r.body.channels.includes('episode'), shown(r));
    const place = placeOf(r, tent);
    assert.ok(place !== null && place <= 3, `Ben's tent not in the top 3:\n${shown(r)}`);
    const m = matchOf(r, tent);
    // The trip is the episode ranked first: its turns come first in the episode channel.
    assert.ok(ranked(m.episode_rank, r) <= trip.size, shown(r));
    for (const n of nodesOf(r))
      if (!trip.has(n.id) && typeof n.match.episode_rank === 'number')
        assert.ok(n.match.episode_rank > trip.size, shown(r));
  });

  it('who speaks: a question naming both speakers finds what they said of its topic, not the lines that only call them by name', async () => {
    const t = await newTenant(0);
    const ids = await load(t, [
      { content: 'Joanna: Hey Nate! Long time no see, Nate. How have you been?', episode: 'chat-1' },
      { content: 'Nate: Hey Joanna! So good to hear from you, Joanna.', episode: 'chat-1' },
      { content: 'Joanna: Thanks, Nate! You always cheer me up, Nate.', episode: 'chat-1' },
      { content: "Nate: I'm drawn to turtles. They are calm, slow and easy to look after.", episode: 'chat-2' },
      { content: 'Joanna: I finished my screenplay and sent it to a film festival.', episode: 'chat-2' },
      { content: 'Joanna: Turtles remind me of strength and patience. I love them too!', episode: 'chat-3' },
      { content: 'Nate: I won my third video game tournament last weekend.', episode: 'chat-3' },
      { content: 'Nate: LeBron James is the best basketball player I have ever watched.', episode: 'chat-3' },
    ]);
    const turtles = [ids[3]!, ids[5]!];
    const r = await search(t, { query: 'What animal do both Nate and Joanna like?' });
    // The lines of the topic come first, and above every line that only greets them by name.
    const greetings = ids.slice(0, 3).map((id) => placeOf(r, id) ?? Infinity);
    for (const id of turtles) {
      const place = placeOf(r, id);
      assert.ok(place !== null && place < Math.min(...greetings), `a greeting over a turtle line:\n${shown(r)}`);
    }
    // Who said them still counts: the hops rank every line of both by its speaker.
    for (const id of turtles) ranked(matchOf(r, id).graph_rank, r);
    // A name of someone who does not speak in the project is what the question asks about, and stays in it.
    const asked = await askedOfSpeakers(
      harness().service.deps.graph,
      t.projectId,
      "What does Nate's friend think of LeBron James?",
    );
    assert.deepEqual(asked.speakers, ['nate']);
    assert.equal(asked.meaning, "What does someone's friend think of LeBron James?");
    assert.equal(asked.words, 'What does friend think of LeBron James?');
    const lebron = await search(t, { query: 'What does Nate think of LeBron James?' });
    assert.equal(placeOf(lebron, ids[7]!), 1, shown(lebron));
  });

  it("who speaks, among many: what others said to each other in conversations without the named speaker ranks after what the speaker's own conversations hold", async () => {
    const t = await newTenant(0);
    const ids = await load(t, [
      { content: 'Ana: I started learning the cello last month.', episode: 'ana-ben-1' },
      { content: 'Ben: Ana, your cello sounded great at the recital!', episode: 'ana-ben-1' },
      { content: 'Ana: I also picked up the ukulele at a summer camp.', episode: 'ana-ben-2' },
      { content: 'Ben: I went hiking in the Alps with my sister.', episode: 'ana-ben-2' },
      { content: 'Melanie: I played my violin at the spring recital last night.', episode: 'mel-jo-1' },
      { content: 'Joanna: I finally bought a banjo, my second instrument after the ukulele.', episode: 'mel-jo-1' },
      { content: 'Melanie: I have started taking clarinet lessons again.', episode: 'mel-jo-2' },
      { content: 'Joanna: Nate plays the banjo at every picnic now.', episode: 'mel-jo-2' },
    ]);
    const r = await search(t, { query: 'What instruments does Ana play?' });
    // Melanie and Joanna speak only to each other: their instruments are not Ana's, however near by meaning.
    const others = ids.slice(4).map((id) => placeOf(r, id) ?? Infinity);
    for (const id of [ids[0]!, ids[2]!]) {
      const place = placeOf(r, id);
      assert.ok(place !== null && place < Math.min(...others), `another's line over Ana's:\n${shown(r)}`);
    }
    // A line of Ana's conversation partner is not moved: in it, Ben may be telling what Ana plays.
    const ben = placeOf(r, ids[1]!);
    assert.ok(ben === null || ben < Math.min(...others), shown(r));
    // Asked without a speaker's name, the lines keep the order their evidence gives them.
    const plain = await search(t, { query: 'Who plays the violin?' });
    assert.equal(placeOf(plain, ids[4]!), 1, shown(plain));
  });

  it('floor: a question of words no memory holds answers nothing, not the nearest memories by meaning', async () => {
    const t = await newTenant(0);
    await load(t, [
      { content: 'The Berlin office closes at 7 pm on weekdays.' },
      { content: 'Salaries are paid by Acme Payroll on the 25th of each month.' },
      { content: 'New starters receive a laptop on their first day.' },
      { content: 'The staging database is restored from backup every Sunday night.' },
      { content: 'Our support team answers tickets within four hours.' },
    ]);
    for (const query of ['Flurbizontal quaxification?', 'quaxification']) {
      const r = await search(t, { query });
      // No memory holds either word, so nothing has words' evidence; meaning alone must not fill the answer.
      assert.deepEqual(nodesOf(r), [], `${query}\n${shown(r)}`);
      assert.equal(r.body.count, 0);
    }
  });

  describe('rare words', () => {
    let t: Tenant;
    let ids: string[];
    const question = { query: 'When is the budget approved for the zorblax migration?' };
    before(async () => {
      t = await newTenant(0);
      ids = await load(t, [
        { content: 'The rollout budget for the new scheduling tool was approved at forty thousand euros.' },
        { content: 'The Zorblax migration is planned for the second week of October.' },
        { content: 'The scheduling tool migration needs a budget approval before October.' },
        { content: 'Budget approvals above ten thousand euros go to the finance committee.' },
        { content: 'The new scheduling tool replaces the old spreadsheet rota.' },
      ]);
    });

    it('the one memory holding a word no dictionary knows comes first and names it in match.rare', async () => {
      const r = await search(t, question);
      assert.equal(nodesOf(r)[0]?.id, ids[1], shown(r));
      assert.deepEqual(nodesOf(r)[0]!.match.rare, ['zorblax'], shown(r));
    });

    it('the same question asked twice answers the same memories in the same order, with the same match', async () => {
      const first = await search(t, question);
      assert.ok(nodesOf(first).length >= 3, shown(first));
      const again = await search(t, question);
      assert.deepEqual(
        nodesOf(again).map((n) => n.id),
        nodesOf(first).map((n) => n.id),
      );
      assert.deepEqual(
        nodesOf(again).map((n) => n.match),
        nodesOf(first).map((n) => n.match),
      );
    });

    it('an English word that merely opens a memory (capitalised as every sentence is) is not read as a rare name', async () => {
      // "budget" is held by three memories, one of which opens with it ("Budget approvals ..."): a capital that starts
      // a sentence is no name, so no memory is put first for "budget".
      const r = await search(t, question);
      for (const n of nodesOf(r)) assert.ok(!(n.match.rare ?? []).includes('budget'), shown(r));
    });
  });

  it('channels: a request naming only words is served by words alone, and an unknown channel is a 400 naming the field', async () => {
    const t = await newTenant(0);
    const ids = await load(t, [
      { content: 'Ana: Did you see the new pottery studio downtown?', episode: 'chat-1' },
      { content: 'Ben: Yes, I signed up there yesterday!', episode: 'chat-1' },
      { content: 'Caroline: The pottery class starts at six on Mondays.', episode: 'chat-2' },
      { content: 'Dan: The ceramics kiln is broken again.', episode: 'chat-2' },
    ]);
    const query = 'Who signed up for the pottery studio?';
    const all = await search(t, { query });
    // Asked with every channel, meaning and context rank too (what the words-only answer must not show).
    for (const c of ['words', 'meaning', 'context', 'episode']) assert.ok(all.body.channels.includes(c), shown(all));
    assert.ok(
      nodesOf(all).some((n) => n.match.semantic_rank !== null),
      shown(all),
    );
    const words = await search(t, { query, channels: ['words'] });
    assert.deepEqual(words.body.channels, ['words']);
    assert.deepEqual(words.body.time, []);
    assert.ok(nodesOf(words).length > 0, shown(words));
    for (const n of nodesOf(words)) {
      assert.notEqual(n.match.lexical_rank, null, shown(words));
      assert.equal(n.match.semantic_rank, null, shown(words));
      assert.equal(n.match.similarity, null, shown(words));
      assert.equal(n.match.graph_rank, null, shown(words));
      for (const k of ['context_rank', 'episode_rank', 'time_rank'] as const)
        assert.ok(n.match[k] === undefined || n.match[k] === null, shown(words));
    }
    // The kiln shares no word with the question: only meaning could find it, and meaning was not asked.
    assert.ok(!nodesOf(words).some((n) => n.id === ids[3]), shown(words));

    const unknown = await t.post('/v1/memories/search', { query, channels: ['words', 'vibes'] });
    assert.equal(unknown.status, 400, JSON.stringify(unknown.body));
    assert.match(JSON.stringify(unknown.body.error), /\/body\/channels/, JSON.stringify(unknown.body));
    const empty = await t.post('/v1/memories/search', { query, channels: [] });
    assert.equal(empty.status, 400, JSON.stringify(empty.body));
    assert.match(JSON.stringify(empty.body.error), /\/body\/channels/, JSON.stringify(empty.body));
  });

  it('channels: a request naming only meaning reports no rank by words for what it answers', async () => {
    const t = await newTenant(0);
    await load(t, [
      { content: 'Ana: Did you see the new pottery studio downtown?', episode: 'chat-1' },
      { content: 'Ben: Yes, I signed up there yesterday!', episode: 'chat-1' },
      { content: 'Caroline: The pottery class starts at six on Mondays.', episode: 'chat-2' },
      { content: 'Dan: The ceramics kiln is broken again.', episode: 'chat-2' },
    ]);
    const r = await search(t, { query: 'Who signed up for the pottery studio?', channels: ['meaning'] });
    assert.deepEqual(r.body.channels, ['meaning']);
    assert.ok(nodesOf(r).length > 0, shown(r));
    for (const n of nodesOf(r)) {
      assert.notEqual(n.match.semantic_rank, null, shown(r));
      // lexical_rank is the rank among the full-text hits; words were not asked, so none ranked.
      assert.equal(n.match.lexical_rank, null, shown(r));
    }
  });
});
