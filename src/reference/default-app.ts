/** The reference for Node: over the contract given, else the kit's openapi.yaml (read from its file). */
import { loadContract } from '../openapi/index.js';
import { createStoreApp, type App, type AppOptions } from './app.js';

export function createApp(options: AppOptions): App {
  return createStoreApp(options.contract ?? loadContract(), options);
}
