/**
 * Before the browser tests' database starts: is there a chromium to drive (test/support/chromium.ts)? Then the
 * portal is built as `npm start` builds it (unchanged sources: nothing to do), so the service serves it.
 */
import { buildPortal } from '../../scripts/build-portal';
import { chromiumProblem } from './chromium';

export async function setup(): Promise<void> {
  const problem = chromiumProblem();
  if (problem) throw new Error(problem);
  await buildPortal();
}
