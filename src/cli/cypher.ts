// `gks cypher`: a terminal Cypher client for knowledge engineers, on the service's configuration (the
// local engine of `npm start` unless NEO4J_URI is set). `-e QUERY` runs one statement, `-f FILE` runs a
// saved file (e.g. cypher/examples/*.cypher), otherwise a REPL reads statements ending with `;`.
// `--param name=value` (value read as JSON when it parses, else as text) supplies $parameters.
import fs from 'node:fs';
import readline from 'node:readline';
import { parseArgs } from 'node:util';
import neo4j, { type Driver } from 'neo4j-driver';
import { toPlain, type Plain } from '../db/values.js';
import { splitStatements } from './statements.js';

export const CYPHER_USAGE = `usage: gks cypher [QUERY | -e QUERY | -f FILE] [--param NAME=VALUE]... [--json]
  a QUERY argument is the same as -e QUERY (as in cypher-shell)
  without a query or -f: an interactive shell; end a statement with ";"
  shell commands: :param NAME=VALUE   :params   :help   :exit`;

export interface Connection {
  uri: string;
  user: string;
  password: string;
  database: string;
}

type Params = Record<string, unknown>;

function parseParam(text: string, params: Params): void {
  const eq = text.indexOf('=');
  if (eq < 1) throw new Error(`a parameter is NAME=VALUE, got "${text}"`);
  const raw = text.slice(eq + 1);
  let value: unknown = raw;
  try {
    value = JSON.parse(raw);
  } catch {
    // not JSON: the text itself
  }
  params[text.slice(0, eq).trim()] = value;
}

/** A value as a person reads it: nodes as (:Label {..}), relationships as [:TYPE {..}], the rest as JSON. */
export function display(value: unknown): string {
  if (neo4j.isNode(value))
    return `(${value.labels.map((l) => `:${l}`).join('')} ${JSON.stringify(toPlain(value.properties))})`;
  if (neo4j.isRelationship(value)) return `[:${value.type} ${JSON.stringify(toPlain(value.properties))}]`;
  if (neo4j.isPath(value))
    return value.segments.map((s) => `${display(s.start)}-${display(s.relationship)}->${display(s.end)}`).join(' ');
  const plain = toPlain(value);
  return typeof plain === 'string' ? plain : JSON.stringify(plain);
}

function jsonValue(value: unknown): Plain {
  if (neo4j.isNode(value)) return { labels: value.labels, properties: toPlain(value.properties) };
  if (neo4j.isRelationship(value)) return { type: value.type, properties: toPlain(value.properties) };
  if (Array.isArray(value)) return value.map(jsonValue);
  return toPlain(value);
}

export function table(columns: string[], rows: string[][]): string {
  const cut = (s: string) => (s.length > 80 ? `${s.slice(0, 79)}…` : s).replace(/\n/g, ' ');
  const cells = rows.map((r) => r.map(cut));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  const rule = `+${widths.map((w) => '-'.repeat(w + 2)).join('+')}+`;
  return [rule, line(columns), rule, ...cells.map(line), rule].join('\n');
}

async function runOne(
  driver: Driver,
  conn: Connection,
  statement: string,
  params: Params,
  json: boolean,
): Promise<string> {
  const began = Date.now();
  const result = await driver.executeQuery(statement, params, { database: conn.database });
  const columns = result.keys.map(String);
  if (json) {
    return JSON.stringify({
      columns,
      rows: result.records.map((r) => Object.fromEntries(columns.map((c) => [c, jsonValue(r.get(c))]))),
    });
  }
  const counters = result.summary.counters;
  const changed = Object.entries(counters.updates()).filter(([, n]) => n > 0);
  const writes = changed.length ? ` (${changed.map(([k, n]) => `${k}: ${n}`).join(', ')})` : '';
  const rows = `${result.records.length} row${result.records.length === 1 ? '' : 's'}`;
  const footer = `${rows} in ${Date.now() - began} ms${writes}`;
  if (columns.length === 0) return footer;
  return `${table(
    columns,
    result.records.map((r) => columns.map((c) => display(r.get(c)))),
  )}\n${footer}`;
}

async function shell(driver: Driver, conn: Connection, params: Params, json: boolean): Promise<void> {
  const interactive = process.stdin.isTTY === true;
  const rl = readline.createInterface({
    input: process.stdin,
    output: process.stdout,
    terminal: interactive,
    prompt: 'cypher> ',
  });
  if (interactive)
    process.stdout.write(
      `Connected to ${conn.uri} (database ${conn.database}). End statements with ";", :help for help.\n`,
    );
  let buffer = '';
  if (interactive) rl.prompt();
  for await (const line of rl) {
    const trimmed = line.trim();
    if (!buffer && trimmed.startsWith(':')) {
      const [command, ...rest] = trimmed.split(/\s+/);
      if (command === ':exit' || command === ':quit') break;
      else if (command === ':param') parseParam(rest.join(' '), params);
      else if (command === ':params') process.stdout.write(`${JSON.stringify(params)}\n`);
      else process.stdout.write(`${CYPHER_USAGE}\n`);
    } else {
      buffer += `${line}\n`;
      const { statements, rest } = splitStatements(buffer);
      buffer = rest;
      for (const statement of statements) await runAndPrint(driver, conn, statement, params, json);
    }
    if (interactive) rl.setPrompt(buffer ? '   ...> ' : 'cypher> ');
    if (interactive) rl.prompt();
  }
  rl.close();
  // Piped input may end without a ";" (echo "MATCH ..." | gks cypher): the last statement runs all the same.
  if (!interactive && buffer.trim() !== '') await runAndPrint(driver, conn, buffer, params, json);
}

async function runAndPrint(driver: Driver, conn: Connection, statement: string, params: Params, json: boolean) {
  try {
    process.stdout.write(`${await runOne(driver, conn, statement, params, json)}\n`);
  } catch (error) {
    process.stdout.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}

export async function runCypher(argv: string[], conn: Connection): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      execute: { type: 'string', short: 'e' },
      file: { type: 'string', short: 'f' },
      param: { type: 'string', short: 'p', multiple: true },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(`${CYPHER_USAGE}\n`);
    return;
  }
  if (positionals.length > 1 || (positionals.length === 1 && (values.execute ?? values.file) !== undefined))
    throw new Error(`one query at a time: quote it as one argument, or use -e or -f\n${CYPHER_USAGE}`);
  const params: Params = {};
  for (const p of values.param ?? []) parseParam(p, params);
  const driver = neo4j.driver(conn.uri, neo4j.auth.basic(conn.user, conn.password), { disableLosslessIntegers: true });
  try {
    await driver.verifyConnectivity({ database: conn.database }).catch((error: { code?: string }) => {
      if (String(error.code).startsWith('Neo.ClientError.Security.'))
        throw new Error(
          `Neo4j at ${conn.uri} refused the login of user ${conn.user}: set NEO4J_USER and NEO4J_PASSWORD ` +
            '(the local engine of `npm start` keeps its password in .data/neo4j-password).',
        );
      throw new Error(`Neo4j is not reachable at ${conn.uri}. Start the service with \`npm start\`, or set NEO4J_URI.`);
    });
    const script = values.execute ?? positionals[0] ?? (values.file ? fs.readFileSync(values.file, 'utf8') : undefined);
    if (script === undefined) return await shell(driver, conn, params, values.json ?? false);
    const { statements, rest } = splitStatements(script);
    if (rest.trim()) statements.push(rest.trim());
    for (const statement of statements)
      process.stdout.write(`${await runOne(driver, conn, statement, params, values.json ?? false)}\n`);
  } finally {
    await driver.close();
  }
}
