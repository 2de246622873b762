// Who is signed in (GET /v2/auth/me), shared by the shell and the pages.
import { get } from './api.js';

export const session = { me: null, loaded: false };

/** Reloads the signed-in user; null when there is no session. */
export async function loadMe() {
  try {
    session.me = await get('/auth/me', undefined, { noAuthRedirect: true });
  } catch (error) {
    if (error.status !== 401) throw error;
    session.me = null;
  }
  session.loaded = true;
  return session.me;
}

/** The default credentials are still in use: nothing else may be done until they change. */
export function mustChangeCredentials() {
  return Boolean(session.me?.mustChangePassword);
}

export function isAdmin() {
  return session.me?.role === 'admin';
}
