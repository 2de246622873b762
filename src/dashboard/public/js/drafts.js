// What was typed on a page when the session ended, kept for the same page after signing in
// again (sessionStorage: this tab only, gone when it closes). Passwords, tokens and files
// are never kept.

const KEY = 'shelfmark:draft';
const SKIP_TYPES = new Set(['password', 'file', 'hidden', 'submit', 'button']);

function fields(root) {
  return [...root.querySelectorAll('input[name], select[name], textarea[name]')].filter(
    (el) => !SKIP_TYPES.has(el.type) && !el.readOnly && !/token|secret|key/i.test(el.name),
  );
}

/** Saves the page's typed values (only when something was typed). */
export function saveDraft(path, root) {
  const values = {};
  for (const el of fields(root)) {
    if (el.type === 'checkbox' || el.type === 'radio') {
      if (el.checked !== el.defaultChecked) values[el.name] = el.checked;
    } else {
      const initial = el.tagName === 'SELECT' ? ([...el.options].find((o) => o.defaultSelected) ?? el.options[0])?.value : el.defaultValue;
      if (el.value !== initial) values[el.name] = el.value;
    }
  }
  if (Object.keys(values).length === 0) return;
  try {
    sessionStorage.setItem(KEY, JSON.stringify({ path, values }));
  } catch {
    // storage full or disabled: nothing is kept
  }
}

/** Puts saved values back into the page at `path`; true when something was restored. */
export function restoreDraft(path, root) {
  let draft;
  try {
    draft = JSON.parse(sessionStorage.getItem(KEY) ?? 'null');
  } catch {
    draft = null;
  }
  if (!draft || draft.path !== path) return false;
  sessionStorage.removeItem(KEY);
  let restored = false;
  for (const el of fields(root)) {
    if (!(el.name in draft.values)) continue;
    const value = draft.values[el.name];
    if (el.type === 'checkbox' || el.type === 'radio') el.checked = Boolean(value);
    else el.value = String(value);
    el.dispatchEvent(new Event('input', { bubbles: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
    restored = true;
  }
  return restored;
}
