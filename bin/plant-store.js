#!/usr/bin/env node
// The `plant-store` command: the compiled CLI (built by `npm ci` through the `prepare` script).
import { main } from '../dist/src/cli/main.js';

process.exitCode = await main(process.argv.slice(2));
