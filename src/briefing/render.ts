// Renders selected evidence as a briefing organised for action: what was decided and learned comes
// before what was merely observed, and it ends with next steps derived from what is present.
import { collapseWhitespace, stripInlineMarkdown } from './plain.js';
import { KIND_ORDER, memoryDay } from './select.js';
import type { BriefingMemory, MemoryKind } from './types.js';

export interface RenderedBriefing {
  markdown: string;
  text: string;
}

interface Section {
  kind: MemoryKind;
  items: BriefingMemory[];
}

const SECTION_TITLES: Record<MemoryKind, string> = {
  decision: 'Decisions',
  lesson: 'Lessons',
  preference: 'Preferences',
  fact: 'Facts',
  signal: 'Signals',
  observation: 'Observations',
};

function counted(count: number, kind: MemoryKind): string {
  return `${count} ${kind}${count === 1 ? '' : 's'}`;
}

function listed(parts: string[]): string {
  return parts.length <= 1 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

/** Content as one sentence: whitespace collapsed, a trailing period or colon dropped so one can follow. */
function clause(content: string): string {
  return collapseWhitespace(content).replace(/[.;:,]+$/, '');
}

function summaryOf(sections: Section[], selectedCount: number, candidateCount: number): string {
  const days = sections
    .flatMap((s) => s.items.map(memoryDay))
    .filter((d) => /^\d{4}-\d{2}-\d{2}$/.test(d))
    .sort();
  const first = days[0];
  const last = days[days.length - 1];
  const range =
    first === undefined || last === undefined
      ? ''
      : first === last
        ? `, dated ${first}`
        : `, dated ${first} to ${last}`;
  const memories = selectedCount === 1 ? 'memory' : 'memories';
  const kinds = listed(sections.map((s) => counted(s.items.length, s.kind)));
  return `Selected ${selectedCount} ${memories} from ${candidateCount} candidates: ${kinds}${range}.`;
}

/** "the decision" or "the 3 decisions". */
function the(count: number, kind: MemoryKind): string {
  return count === 1 ? `the ${kind}` : `the ${count} ${kind}s`;
}

function nextStep(section: Section): string {
  const n = section.items.length;
  const lead = section.items[0] === undefined ? '' : clause(section.items[0].content);
  const them = n === 1 ? 'it' : 'them';
  // The lead memory is quoted as its own sentence, so its capital letter reads naturally.
  const most = n === 1 ? ' It reads: ' : ' The most relevant reads: ';
  switch (section.kind) {
    case 'decision':
      return (
        `Follow ${the(n, 'decision')} already taken unless new evidence justifies revisiting ${them}.` +
        `${most}"${lead}".`
      );
    case 'lesson':
      return `Apply ${the(n, 'lesson')} learned before repeating similar work.${most}"${lead}".`;
    case 'preference':
      return `Respect ${the(n, 'preference')} in whatever you produce.${most}"${lead}".`;
    case 'fact':
      return (
        `Treat ${the(n, 'fact')} as current, and re-check ` +
        `${n === 1 ? 'it if it has' : 'any that have'} gone stale.`
      );
    case 'signal':
      return `Watch ${the(n, 'signal')} and act if ${n === 1 ? 'it strengthens' : 'they strengthen'}.${most}"${lead}".`;
    case 'observation':
      return `Confirm ${the(n, 'observation')} before relying on ${them}.`;
  }
}

function renderEmpty(title: string, candidateCount: number): RenderedBriefing {
  const why =
    candidateCount === 0
      ? 'No memories matched this query, so there is no evidence to brief on.'
      : `None of the ${candidateCount} candidate memories was selected as evidence, so there is nothing to brief on.`;
  const next = 'Widen or rephrase the query, or record the relevant decisions, lessons and facts as memories first.';
  return {
    markdown: `# ${title}\n\n${why}\n\n## What to do next\n\n- ${next}\n`,
    text: `${title}\n\n${why}\n\nWhat to do next: ${next}\n`,
  };
}

/** The built-in briefing for the selected evidence, in selection order within each section. */
export function renderBriefing(
  query: string,
  selected: readonly BriefingMemory[],
  candidateCount: number,
): RenderedBriefing {
  const title = `Situation briefing: ${collapseWhitespace(query) || '(no query)'}`;
  const sections: Section[] = KIND_ORDER.map((kind) => ({
    kind,
    items: selected.filter((memory) => memory.kind === kind),
  })).filter((section) => section.items.length > 0);
  if (sections.length === 0) return renderEmpty(title, candidateCount);

  const summary = summaryOf(sections, selected.length, candidateCount);
  const steps = sections.map(nextStep);
  const markdown = [
    `# ${title}`,
    summary,
    ...sections.map((s) => {
      const items = s.items.map((m) => `- ${collapseWhitespace(m.content)} (${memoryDay(m)})`);
      return `## ${SECTION_TITLES[s.kind]}\n\n${items.join('\n')}`;
    }),
    `## What to do next\n\n${steps.map((step) => `- ${step}`).join('\n')}`,
  ];
  const text = [
    title,
    summary,
    ...sections.map((s) => {
      const items = s.items.map((m) => `${stripInlineMarkdown(clause(m.content))} (${memoryDay(m)}).`);
      return `${SECTION_TITLES[s.kind]}: ${items.join(' ')}`;
    }),
    `What to do next: ${steps.map(stripInlineMarkdown).join(' ')}`,
  ];
  return { markdown: `${markdown.join('\n\n')}\n`, text: `${text.join('\n\n')}\n` };
}
