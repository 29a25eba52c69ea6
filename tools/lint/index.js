// Re-exports the lint packages so the repository's eslint.config.js resolves them (and the TypeScript
// 6.0 that typescript-eslint parses with) from this folder's own node_modules.
export { default as js } from '@eslint/js';
export { default as tseslint } from 'typescript-eslint';
export { default as globals } from 'globals';
export { ESLint } from 'eslint';
