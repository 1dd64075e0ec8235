/** Before the browser tests' database starts: is there a chromium to drive (test/support/chromium.ts)? */
import { chromiumProblem } from './chromium';

export function setup(): void {
  const problem = chromiumProblem();
  if (problem) throw new Error(problem);
}
