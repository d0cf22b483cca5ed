#!/usr/bin/env node
// The `plant-store` command: the compiled CLI (built by `npm ci` through the `prepare` script).
// Exit codes are decided in dist/cli/main.js; only a kit that cannot even load is handled here,
// as the crash it is (70, EX_SOFTWARE), never as 1 ("the target broke the contract").
let cli;
try {
  cli = await import('../dist/cli/main.js');
} catch (error) {
  process.stderr.write(`plant-store: the kit cannot load (is dist/ built? run \`npm run build\`); if it is, this is a defect of Plant Store Kit, please report it with this output:\n`);
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(70);
}
await cli.runProcess(process.argv.slice(2));
