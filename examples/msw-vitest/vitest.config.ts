import { defineConfig } from 'vitest/config';

// Nothing to start: the handlers run inside the test process (see plants.test.ts).
export default defineConfig({ test: {} });
