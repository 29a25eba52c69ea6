// Which questions the hops walk by meaning (docs/recall.md, "Hops"): a question asking for several things of a kind,
// whose answers are told apart in several memories; not a question about one thing.
import assert from 'node:assert/strict';
import { asksForSeveral } from '../../src/memories/termWalk.js';

describe('recall: which questions ask for several things (the walk by meaning)', () => {
  it('a question for several things of a kind, places, counts or what two share is one', () => {
    for (const q of [
      'What activities does Melanie partake in?',
      'Which cities has Jon visited?',
      'Which European countries has Maria been to?',
      'What musical artists/bands has Melanie seen?',
      'What kind of art does Caroline make?',
      'What types of pottery have Melanie and her kids made?',
      'Where has Melanie camped?',
      'How many times has Melanie gone to the beach in 2023?',
      'What do Jon and Gina both have in common?',
      'what books has melanie read',
      'What areas of the U.S. has John been to?',
      'What attributes describe John?',
      "What pets wouldn't cause any discomfort to Joanna?",
      'What events happened in June?',
      'Which attorneys do we use when a client sues us?',
      // A preposition first, a plural not in -s.
      'In what ways is Caroline participating in the community?',
      'From which countries did the guests come?',
      'What people has Maria met while volunteering?',
    ])
      assert.equal(asksForSeveral(q), true, q);
  });

  it('a question about one thing, or not a question of that form, is not', () => {
    for (const q of [
      "What is Caroline's identity?",
      'What did Melanie paint recently?',
      'What does Melanie do to destress?',
      'What was the poetry reading about?',
      'Why did Melanie choose to use colors and patterns in her pottery project?',
      'When did Caroline go to the LGBTQ support group?',
      'What class has Caroline taken?',
      "What was Melanie's favourite book as a child?",
      'What does his sister do?',
      // A word in -s after the opening is the question's verb: the question asks for one thing.
      'Which vendor handles wages?',
      'Which supplier provides battery cells?',
      'What motivates Joanna to keep writing even on tough days?',
      'What helps Joanna stay focused?',
      "What motivates John's team to get better?",
      'what causes err-4013',
      'What makes you happy?',
      'Which song motivates Caroline to be courageous?',
      // A plural verb alone is not walked (docs/recall.md, "Hops by meaning").
      "What are Maria's dogs' names?",
      'In what year did Caroline move?',
      'kubernetes',
      '',
    ])
      assert.equal(asksForSeveral(q), false, q);
  });
});
