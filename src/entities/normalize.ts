// How entity names are compared: the same person written "Ada  Lovelace", "ada lovelace" or
// "The Ada Lovelace" resolves to one node per project and type.

export function normalizeName(name: string): string {
  return name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[\p{P}\s]+|[\p{P}\s]+$/gu, '')
    .replace(/^the /, '')
    .trim();
}

export function identityKey(projectId: string, type: string, name: string): string {
  return `${projectId}|${type}|${normalizeName(name)}`;
}
