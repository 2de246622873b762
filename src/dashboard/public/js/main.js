// The dashboard shell: session check, navigation guard (sign in first; change the default
// credentials before anything else), page loading, focus management.
import { h, mount } from './dom.js';
import { post, setUnauthorizedHandler } from './api.js';
import { currentRoute, matchRoute, loadPage, navigate } from './router.js';
import { errorBox, flash, resetFlash, setTitle } from './ui.js';
import { session, loadMe, mustChangeCredentials } from './session.js';
import { saveDraft, restoreDraft } from './drafts.js';

const main = document.getElementById('main');
const nav = document.getElementById('nav');
const who = document.getElementById('who');
const menu = document.getElementById('menu');

// On a narrow screen the navigation folds behind a menu button (app.css shows one or the other).
menu.addEventListener('click', () => setMenu(menu.getAttribute('aria-expanded') !== 'true'));
nav.addEventListener('keydown', (event) => {
  if (event.key === 'Escape' && menu.getAttribute('aria-expanded') === 'true') {
    setMenu(false);
    menu.focus();
  }
});
function setMenu(open) {
  menu.setAttribute('aria-expanded', String(open));
  nav.classList.toggle('open', open);
}
let current = null; // { controller, seq }
let seq = 0;

function updateChrome(path) {
  const signedIn = Boolean(session.me) && !mustChangeCredentials();
  nav.hidden = !signedIn;
  menu.hidden = !signedIn;
  setMenu(false);
  who.hidden = !session.me;
  document.getElementById('who-name').textContent = session.me ? `${session.me.username ?? ''}${session.me.role ? ` (${session.me.role})` : ''}` : '';
  // Pages only administrators can use are not offered to members.
  for (const li of nav.querySelectorAll('[data-admin]')) li.hidden = session.me?.role !== 'admin';
  for (const a of nav.querySelectorAll('a')) {
    const target = a.getAttribute('href').slice(1);
    const active = path === target || (target !== '/' && path.startsWith(`${target}/`)) || (target === '/libraries' && path.startsWith('/library/'));
    if (active) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
}

async function route() {
  const mySeq = ++seq;
  const where = currentRoute();
  if (!where) return; // an in-page anchor such as the skip link
  if (!session.loaded) {
    try {
      await loadMe();
    } catch (error) {
      mount(main, h('h1', 'Shelfmark'), errorBox(error));
      return;
    }
  }
  const { path, query } = where;
  const here = `${path}${query.size ? `?${query}` : ''}`;
  if (!session.me && path !== '/login') return navigate(`/login${path !== '/' && path !== '/change-credentials' ? `?next=${encodeURIComponent(here)}` : ''}`);
  if (session.me && mustChangeCredentials() && path !== '/change-credentials') return navigate('/change-credentials');
  if (session.me && (path === '/' || path === '/login')) return navigate('/libraries');

  current?.controller.abort();
  for (const dialog of document.querySelectorAll('dialog[open]')) dialog.close('cancel');
  const controller = new AbortController();
  current = { controller, seq: mySeq };
  resetFlash();
  updateChrome(path);

  const match = matchRoute(path);
  if (!match) {
    mount(main, h('h1', 'Not found'), h('p', 'There is no page at this address. ', h('a', { href: '#/libraries' }, 'Go to the libraries.')));
    setTitle('Not found');
    focusHeading();
    return;
  }
  mount(main, h('p.muted', 'Loading…'));
  try {
    const module = await loadPage(match.module);
    if (mySeq !== seq) return;
    await module[match.fn]({ root: main, params: match.params, query, signal: controller.signal });
    if (mySeq === seq && restoreDraft(here, main)) flash('info', 'What you had typed before signing in again is back in the form.');
  } catch (error) {
    if (error?.name === 'AbortError' || mySeq !== seq) return;
    setTitle('Something went wrong');
    mount(main, h('h1', 'Something went wrong'), errorBox(error));
  }
  if (mySeq === seq && !main.contains(document.activeElement)) focusHeading();
}

/** Moves focus to the page's heading (screen readers announce the new page; no focus ring is drawn for it). */
function focusHeading() {
  const heading = main.querySelector('h1');
  if (heading) {
    heading.tabIndex = -1;
    heading.focus({ preventScroll: true });
  } else main.focus({ preventScroll: true });
}

// The session ended under a page: keep what was typed, sign in, and come back to it.
setUnauthorizedHandler(() => {
  if (!session.me) return;
  session.me = null;
  const where = currentRoute();
  const here = where ? `${where.path}${where.query.size ? `?${where.query}` : ''}` : '/libraries';
  saveDraft(here, main);
  flash('info', 'Your session has ended. Please sign in again; you will come back to this page.', { next: true });
  navigate(`/login?next=${encodeURIComponent(here)}`);
});

document.getElementById('logout').addEventListener('click', async () => {
  try {
    await post('/auth/logout', {}, { noAuthRedirect: true });
  } catch {
    // signing out of an already-ended session is fine
  }
  session.me = null;
  flash('ok', 'You are signed out.', { next: true });
  navigate('/login');
});

window.addEventListener('hashchange', route);
// route() shows its own errors on the page: nothing to await here.
void route();
