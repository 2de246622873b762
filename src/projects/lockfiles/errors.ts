import { ValidationError } from '../../errors';

/** A lockfile that cannot be read: a 400 naming the upload's field. */
export class LockfileError extends ValidationError {
  constructor(message: string) {
    super(message, 'lockfile');
  }
}
