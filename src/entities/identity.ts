// How entity names are compared across the service: one canonical form (the extractor's), so the
// same thing written "Ada  Lovelace" or "the ada lovelace" resolves to one node per project and type.
import { normalizeName } from '../extractor/normalize.js';

export { normalizeName };

export function identityKey(projectId: string, type: string, name: string): string {
  return `${projectId}|${type}|${normalizeName(name)}`;
}
