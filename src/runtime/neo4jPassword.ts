// The local Neo4j's password: generated on first start for each data folder and kept beside its
// dev credentials (.data/neo4j-password, mode 600), so the engine never runs without authentication
// while a web page could reach its Bolt port over WebSocket. External engines (NEO4J_URI) keep
// NEO4J_USER / NEO4J_PASSWORD.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const LOCAL_NEO4J_USER = 'neo4j';

export function neo4jPasswordFile(dataDir: string): string {
  return path.join(dataDir, 'neo4j-password');
}

/** The data folder's password, created (mode 600) when create is set and there is none yet. */
export function localNeo4jPassword(dataDir: string, create: boolean): string | null {
  const file = neo4jPasswordFile(dataDir);
  try {
    const saved = fs.readFileSync(file, 'utf8').trim();
    if (saved.length >= 8) return saved;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (!create) return null;
  const password = crypto.randomBytes(18).toString('base64url');
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, `${password}\n`, { mode: 0o600 });
  return password;
}

/**
 * How a command-line tool reaches the graph: NEO4J_URI with NEO4J_USER / NEO4J_PASSWORD when set;
 * otherwise the local engine of `npm start` with the password it generated.
 */
export function neo4jLogin(config: {
  dataDir: string;
  neo4j: { uri: string | undefined; user: string; password: string; boltPort: number };
}): { uri: string; user: string; password: string } {
  if (config.neo4j.uri) return { uri: config.neo4j.uri, user: config.neo4j.user, password: config.neo4j.password };
  return {
    uri: `bolt://127.0.0.1:${config.neo4j.boltPort}`,
    user: LOCAL_NEO4J_USER,
    password: localNeo4jPassword(config.dataDir, false) ?? config.neo4j.password,
  };
}
