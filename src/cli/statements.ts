// Splits Cypher text into statements at semicolons outside strings, quoted names and comments. What
// follows the last semicolon is returned as `rest` (an unfinished statement, or the only one).

export function splitStatements(text: string): { statements: string[]; rest: string } {
  const statements: string[] = [];
  let start = 0;
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\' && quote !== '`') i++;
      else if (c === quote) quote = null;
    } else if (c === "'" || c === '"' || c === '`') {
      quote = c;
    } else if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      i = end === -1 ? text.length : end;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 1;
    } else if (c === ';') {
      const statement = text.slice(start, i).trim();
      if (hasCode(statement)) statements.push(statement);
      start = i + 1;
    }
  }
  const rest = text.slice(start);
  return { statements, rest: hasCode(rest) ? rest : '' };
}

/** True when the text holds more than whitespace and comments. */
function hasCode(text: string): boolean {
  return (
    text
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/\/\/[^\n]*/g, '')
      .trim() !== ''
  );
}
