/** The records a section 4.3 list answered: shared with the world model, so it lives in suites/lib/. */
export { recordsOf } from '../lib/index.ts';
