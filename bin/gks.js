#!/usr/bin/env node
// Entry point of the gks command (package bin, so `npx gks ...` works in the checkout).
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/gks.ts');
