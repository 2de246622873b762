// Entry of a code-tools thread: TypeScript runs through tsx (as in the main thread, whose
// loader a worker thread does not inherit).
import { register } from 'tsx/esm/api';

register();
await import('./code-thread.ts');
