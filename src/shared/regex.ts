// Text made into a regular expression.

/** `text` with every character a regular expression gives a meaning to escaped, so it matches itself. */
export const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
