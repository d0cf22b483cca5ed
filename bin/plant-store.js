#!/usr/bin/env node
// The `plant-store` command: the compiled CLI (built by `npm ci` through the `prepare` script).
import { main } from '../dist/cli/main.js';

process.exitCode = await main(process.argv.slice(2));
