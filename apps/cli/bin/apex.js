#!/usr/bin/env node
// Runs the TypeScript sources directly, so a fresh `npm ci` needs no build step.
require('tsx/cjs');
require('../src/main.ts').runCli();
