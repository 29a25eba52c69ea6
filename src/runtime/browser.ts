// The Neo4j Browser for knowledge engineers: the static app that Maven Central ships in
// org.neo4j.client:neo4j-browser (under browser/ in the jar), provisioned once into the cache and
// served by a small loopback HTTP server. The app connects to Neo4j itself, over WebSocket to the Bolt
// port (Neo4j 5 accepts Bolt over WebSocket on the same port); this server only hands out files and the
// discovery document that tells the app where Bolt is.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Config } from '../config/config.js';
import { LOCAL_NEO4J_USER } from './neo4jPassword.js';
import { requireTool, runStep, type Progress } from './provision.js';

export const BROWSER_VERSION = '5.24.0';
const BROWSER_JAR_SHA256 = '064b3291c4236002c9ea04c89592ebebc80fe1f790eda36642599c9a1ee80bb8';

/** Fetches the browser jar with Maven (checksum checked) and extracts browser/; returns that folder. */
export async function provisionBrowser(cacheDir: string, progress: Progress): Promise<string> {
  const home = path.join(cacheDir, `neo4j-browser-${BROWSER_VERSION}`);
  const appDir = path.join(home, 'browser');
  const marker = path.join(home, 'ready');
  if (fs.existsSync(marker) && fs.existsSync(path.join(appDir, 'index.html'))) return appDir;
  requireTool('mvn', ['-v'], 'Apache Maven, e.g. `apt-get install maven`');
  requireTool('jar', ['--version'], 'a Java 17 JDK, e.g. `apt-get install openjdk-17-jdk-headless`');
  progress(`Provisioning the Neo4j Browser ${BROWSER_VERSION} from Maven Central (first run only)…`);
  fs.rmSync(home, { recursive: true, force: true });
  fs.mkdirSync(home, { recursive: true });
  const artifact = `org.neo4j.client:neo4j-browser:${BROWSER_VERSION}`;
  await runStep(
    'mvn',
    ['-B', '-q', 'dependency:copy', `-Dartifact=${artifact}`, `-DoutputDirectory=${home}`],
    { log: path.join(home, 'mvn.log') },
    progress,
    'fetch neo4j-browser jar (mvn)',
  );
  const jar = path.join(home, `neo4j-browser-${BROWSER_VERSION}.jar`);
  const digest = crypto.createHash('sha256').update(fs.readFileSync(jar)).digest('hex');
  if (digest !== BROWSER_JAR_SHA256)
    throw new Error(`neo4j-browser jar checksum mismatch: expected ${BROWSER_JAR_SHA256}, got ${digest} (${jar})`);
  await runStep(
    'jar',
    ['xf', jar, 'browser'],
    { cwd: home, log: path.join(home, 'extract.log') },
    progress,
    'extract the Browser app',
  );
  fs.rmSync(jar);
  fs.writeFileSync(marker, new Date().toISOString());
  return appDir;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.eot': 'application/vnd.ms-fontobject',
  '.txt': 'text/plain; charset=utf-8',
};

export interface BrowserServer {
  /** Base URL of the app, e.g. http://127.0.0.1:7474 */
  url: string;
  /** The URL that opens the app already pointed at the Bolt URI. */
  openUrl: string;
  close(): Promise<void>;
}

/** Serves the extracted app; GET / with Accept: application/json answers Neo4j's discovery document. */
export async function serveBrowser(opts: {
  appDir: string;
  port: number;
  host?: string;
  boltUri: string;
  /** The user the connect form is filled in with (its password is typed by the person); null: no auth. */
  user: string | null;
}): Promise<BrowserServer> {
  const root = path.resolve(opts.appDir);
  const discovery = JSON.stringify({
    bolt_direct: opts.boltUri,
    bolt_routing: opts.boltUri.replace(/^bolt(\+s|\+ssc)?:/, 'neo4j$1:'),
    neo4j_edition: 'community',
  });
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (pathname === '/' && (req.headers.accept ?? '').includes('application/json')) {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(req.method === 'HEAD' ? undefined : discovery);
      return;
    }
    const file = path.resolve(root, `.${pathname.endsWith('/') ? `${pathname}index.html` : pathname}`);
    if (!file.startsWith(root + path.sep)) {
      res.writeHead(404).end();
      return;
    }
    fs.stat(file, (error, stat) => {
      if (error || !stat.isFile()) {
        res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('not found');
        return;
      }
      res.writeHead(200, {
        'Content-Type': TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
        'Content-Length': stat.size,
        'Cache-Control': file.endsWith('index.html') ? 'no-cache' : 'max-age=3600',
      });
      if (req.method === 'HEAD') res.end();
      else fs.createReadStream(file).pipe(res);
    });
  });
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;
  const url = `http://${host}:${port}`;
  const dbms = opts.user === null ? opts.boltUri : opts.boltUri.replace('://', `://${encodeURIComponent(opts.user)}@`);
  const query = `dbms=${dbms}&preselectAuthMethod=${opts.user === null ? 'NO_AUTH' : 'NATIVE'}`;
  return {
    url,
    openUrl: `${url}/?${query}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * For `npm start`: provisions and serves the Browser on config.browserPort (0: none). A failure here
 * is reported and the service starts without it; the Browser is a convenience, not a dependency.
 */
export async function startBrowser(
  config: Config,
  boltUri: string,
  progress: Progress,
): Promise<BrowserServer | undefined> {
  if (config.browserPort === 0) return undefined;
  try {
    const appDir = await provisionBrowser(config.cacheDir, progress);
    // The person signs in with the local engine's generated password (or an external engine's own login).
    const user = config.neo4j.uri ? config.neo4j.user : LOCAL_NEO4J_USER;
    return await serveBrowser({ appDir, port: config.browserPort, boltUri, user });
  } catch (error) {
    progress(`  Neo4j Browser not served: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    return undefined;
  }
}
