/** The contract of every media type the kit's media-type tests serve. */
import { fileURLToPath } from 'node:url';

export const MEDIA_FILE = fileURLToPath(new URL('fixtures/media.yaml', import.meta.url));
