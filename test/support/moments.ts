// Moments for reads as known at a time (known_at, docs/facts.md).

/** A moment strictly between what was written before and what is written after it. */
export async function moment(): Promise<string> {
  await new Promise((r) => setTimeout(r, 5));
  const at = new Date().toISOString();
  await new Promise((r) => setTimeout(r, 5));
  return at;
}
