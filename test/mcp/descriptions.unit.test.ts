// MCP tool descriptions are what a model chooses a tool from (issue 57): each says what the tool is for, what it
// answers, and when to use it rather than a neighbour, which it names.
import assert from 'node:assert/strict';
import { TOOLS } from '../../src/mcp/tools.js';

const sentences = (text: string) => text.split(/(?<=[.!?])\s+(?=[A-Z(])/).filter((s) => s.trim() !== '');

describe('MCP tool descriptions', () => {
  it('each is two sentences at least, says what it answers, and names a neighbouring tool to use instead', () => {
    const names = new Set(TOOLS.map((t) => t.name));
    const short: string[] = [];
    for (const tool of TOOLS) {
      const text = tool.description;
      const neighbours = [...names].filter((n) => n !== tool.name && new RegExp(`\\b${n}\\b`).test(text));
      const answers = /\b(answers?|returns?)\b|^(The|A page|A loop's|Read|The types)\b/i.test(text);
      if (sentences(text).length < 2 || text.length < 160 || neighbours.length === 0 || !answers)
        short.push(`${tool.name}: ${text}`);
    }
    assert.deepEqual(short, []);
  });
});
