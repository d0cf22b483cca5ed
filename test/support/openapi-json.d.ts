/**
 * `plant-store-kit/openapi.json` is written by `npm run build` (dist/openapi.json); before a build,
 * the examples that import it are typechecked against this declaration instead.
 */
declare module 'plant-store-kit/openapi.json' {
  const document: Record<string, unknown>;
  export default document;
}
