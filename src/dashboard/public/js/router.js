// A hash router (#/libraries, #/library/owner/repo, #/jobs/<id>?x=y). Each route names a
// page module, loaded on first use, so the first load carries only what the login needs.
// Every navigation gets an AbortSignal: a page's polling and fetches stop when it is left.

const ROUTES = [
  ['/login', 'login', 'renderLogin'],
  ['/change-credentials', 'login', 'renderChangeCredentials'],
  ['/libraries', 'libraries', 'renderLibraries'],
  ['/library/*id', 'library', 'renderLibrary'],
  ['/add', 'add', 'renderAdd'],
  ['/jobs', 'jobs', 'renderJobs'],
  ['/jobs/:id', 'jobs', 'renderJob'],
  ['/playground', 'playground', 'renderPlayground'],
  ['/connect', 'connect', 'renderConnect'],
  ['/usage', 'usage', 'renderUsage'],
  ['/keys', 'keys', 'renderKeys'],
  ['/teams', 'teams', 'renderTeams'],
  ['/teams/:id', 'teams', 'renderTeam'],
  ['/policies', 'policies', 'renderPolicies'],
  ['/permissions', 'permissions', 'renderPermissions'],
  ['/credentials', 'credentials', 'renderCredentials'],
];

/** Parses the current hash into { path, query }; non-route hashes (#main) give null. */
export function currentRoute() {
  const hash = location.hash || '#/';
  if (!hash.startsWith('#/')) return null;
  const [path, search = ''] = hash.slice(1).split('?');
  return { path: path.replace(/\/+$/, '') || '/', query: new URLSearchParams(search) };
}

/** Finds the route for a path: { module, fn, params } or undefined. */
export function matchRoute(path) {
  const parts = path.split('/').filter(Boolean);
  for (const [pattern, module, fn] of ROUTES) {
    const want = pattern.split('/').filter(Boolean);
    const params = {};
    let ok = true;
    for (let i = 0; i < want.length; i++) {
      const w = want[i];
      if (w.startsWith('*')) {
        if (i >= parts.length) ok = false;
        else params[w.slice(1)] = `/${parts.slice(i).map(decodeURIComponent).join('/')}`;
        break;
      }
      if (i >= parts.length) {
        ok = false;
        break;
      }
      if (w.startsWith(':')) params[w.slice(1)] = decodeURIComponent(parts[i]);
      else if (w !== parts[i]) {
        ok = false;
        break;
      }
      if (i === want.length - 1 && parts.length !== want.length) ok = false;
    }
    if (ok) return { module, fn, params };
  }
  return undefined;
}

export function navigate(path) {
  if (location.hash === `#${path}`) window.dispatchEvent(new HashChangeEvent('hashchange'));
  else location.hash = path;
}

const loaded = new Map();
/** Loads a page module (once). */
export function loadPage(name) {
  if (!loaded.has(name)) loaded.set(name, import(`./pages/${name}.js`));
  return loaded.get(name);
}
