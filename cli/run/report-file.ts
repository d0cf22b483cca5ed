/** Writing a report to the file an option names (conform's --json, --junit, --html; the proxy's --report, --junit). */
import { writeFile } from 'node:fs/promises';
import { UsageError } from '../outcome.js';

/** A report file that cannot be written is the user's to fix (a directory that does not exist, say). */
export async function writeReportFile(flag: string, file: string | undefined, text: () => string): Promise<void> {
  if (file === undefined) return;
  try {
    await writeFile(file, text());
  } catch (error) {
    throw new UsageError(`${flag} ${file}: cannot write the report: ${error instanceof Error ? error.message : String(error)}`);
  }
}
