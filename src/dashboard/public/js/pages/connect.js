// Connect: this server's address for assistants, a key chosen (a new one, one you have, or
// none), ready-to-paste setups for the common assistants (js/connect-setups.js, the same
// module a test runs), and a live test making the MCP calls an assistant makes, with what it
// would see. The test runs against this server's own /mcp with the chosen key alone (no
// session cookie), whichever setup is shown: they all reach the same tools.
import { h, mount, field } from '../dom.js';
import { get, post, ROOT } from '../api.js';
import { busy, errorBox, page, showError } from '../ui.js';
import { KEYS } from '../endpoints.js';
import { connectSetups, KEY_PLACEHOLDER } from '../connect-setups.js';
import { codeBlock } from '../markdown.js';

export async function renderConnect({ root, query, signal }) {
  let info;
  let libraries = [];
  try {
    [info, libraries] = await Promise.all([
      get('/connect', undefined, { signal }),
      get('/libraries', undefined, { signal }).then(
        (b) => (b.libraries ?? []).filter((l) => l.usable !== false && (l.versions?.length || l.state === 'finalized')),
        () => [],
      ),
    ]);
  } catch (error) {
    if (error.name === 'AbortError') return;
    mount(root, ...page('Connect an assistant', errorBox(error)));
    return;
  }
  let key = '';
  const setupsSlot = h('div', { id: 'connect-setups' });
  const testSlot = h('div', { 'aria-live': 'polite' });
  let chosen = query.get('client') ?? 'claude-code';

  const drawSetups = () => {
    const setups = connectSetups({
      mcpUrl: info.mcpUrl,
      apiUrl: info.publicUrl,
      key: key || (keyMode.value === 'none' ? '' : KEY_PLACEHOLDER),
      stdio: info.stdio,
    });
    if (!setups.some((s) => s.id === chosen)) chosen = setups[0].id;
    const tabs = setups.map((s) =>
      h(
        'button',
        {
          type: 'button',
          role: 'tab',
          id: `client-tab-${s.id}`,
          'aria-controls': `client-view-${s.id}`,
          'aria-selected': String(s.id === chosen),
          tabindex: s.id === chosen ? '0' : '-1',
          onclick: () => choose(s.id),
          onkeydown: (e) => arrows(e, setups),
        },
        s.name,
      ),
    );
    const views = setups.map((s) =>
      h(
        'div',
        { id: `client-view-${s.id}`, role: 'tabpanel', 'aria-labelledby': `client-tab-${s.id}`, hidden: s.id !== chosen },
        h('p', s.where),
        codeBlock(s.text, s.format === 'shell' ? '' : s.format, { label: `${s.name} setup` }),
        s.note ? h('p.small.muted', s.note) : null,
      ),
    );
    mount(setupsSlot, h('div.tabs.client-tabs', { role: 'tablist', 'aria-label': 'Assistant' }, tabs), views);
  };
  const choose = (id) => {
    chosen = id;
    history.replaceState(null, '', `#/connect?client=${encodeURIComponent(id)}`);
    drawSetups();
    document.getElementById(`client-tab-${id}`)?.focus();
  };
  // Arrow keys move between the assistants (the tab pattern).
  const arrows = (event, setups) => {
    const i = setups.findIndex((s) => s.id === chosen);
    const next =
      event.key === 'ArrowRight' ? i + 1 : event.key === 'ArrowLeft' ? i - 1 : event.key === 'Home' ? 0 : event.key === 'End' ? setups.length - 1 : null;
    if (next === null) return;
    event.preventDefault();
    choose(setups[(next + setups.length) % setups.length].id);
  };

  // The key: a new one (its value shown once, here), one you have (pasted), or none.
  const keyMode = h(
    'select',
    { id: 'connect-key-mode', name: 'keyMode' },
    h('option', { value: 'new' }, 'Create a new key for this assistant'),
    h('option', { value: 'paste' }, 'Use a key I have (paste it)'),
    info.keyRequired ? null : h('option', { value: 'none' }, 'No key (anonymous, lower rate limits)'),
  );
  const keyName = h('input', { type: 'text', name: 'keyName', maxlength: 100, value: 'coding assistant', autocomplete: 'off' });
  const pasted = h('input', { type: 'password', name: 'pastedKey', autocomplete: 'off', spellcheck: 'false', placeholder: 'smk_…' });
  const create = h('button', { type: 'button' }, 'Create key');
  const keyErrors = h('div');
  const keyStatus = h('p.small', { role: 'status' });
  const newPart = h('div.row', field('Key name', keyName, 'Says which assistant uses it, so you know which to delete.'), h('div.field', create));
  const yours = h('p.small.muted');
  const pastePart = h('div', field('API key', pasted, 'Keys are shown only when created; paste the value you kept.'), yours);
  // Which keys there are (their names and first characters), so the right one is pasted.
  get(KEYS.list, undefined, { signal })
    .then(KEYS.items)
    .then(
      (keys) => {
        yours.textContent = keys.length
          ? `Your keys: ${keys.map((k) => `${k.name} (${k.prefix ?? 'smk_'}…)`).join(', ')}.`
          : 'You have no key yet: create one instead.';
      },
      () => undefined,
    );
  const showKeyMode = () => {
    newPart.hidden = keyMode.value !== 'new';
    pastePart.hidden = keyMode.value !== 'paste';
    key =
      keyMode.value === 'paste' ? pasted.value.trim() : keyMode.value === 'none' ? '' : key.startsWith('smk_') && keyMode.dataset.created === key ? key : '';
    keyStatus.textContent = key
      ? 'The setups below carry this key.'
      : keyMode.value === 'none'
        ? 'The setups below carry no key.'
        : `The setups below show ${KEY_PLACEHOLDER} until a key is chosen.`;
    drawSetups();
  };
  keyMode.addEventListener('change', showKeyMode);
  pasted.addEventListener('input', showKeyMode);
  create.addEventListener('click', () =>
    busy(
      create,
      async () => {
        const created = await post(KEYS.list, { name: keyName.value.trim() || 'coding assistant' });
        key = KEYS.value(created);
        keyMode.dataset.created = key;
        keyStatus.textContent = `Key “${created.name ?? keyName.value}” created (${created.prefix ?? key.slice(0, 8)}…). It is in the setups below and will not be shown again after you leave this page.`;
        drawSetups();
      },
      { label: 'Creating…', errorSlot: keyErrors },
    ),
  );

  // The live test.
  const library = h(
    'select',
    { id: 'connect-test-library', name: 'testLibrary' },
    libraries.length
      ? libraries.map((l) => h('option', { value: l.id }, l.title && l.title !== l.id ? `${l.title} (${l.id})` : l.id))
      : h('option', { value: '' }, 'No library yet'),
  );
  const question = h('input', { type: 'text', name: 'testQuestion', value: 'How do I get started?' });
  const testButton = h('button', { type: 'button', disabled: libraries.length === 0 }, 'Test this setup');
  testButton.addEventListener('click', () =>
    busy(
      testButton,
      () =>
        runTest(testSlot, {
          key: keyMode.value === 'none' ? '' : key,
          libraryId: library.value,
          question: question.value.trim() || 'How do I get started?',
          keyRequired: info.keyRequired,
        }),
      { label: 'Testing…' },
    ),
  );

  mount(
    root,
    ...page(
      'Connect an assistant',
      h('p.muted', 'Give a coding assistant this server’s documentation: pick a key, copy the setup for your assistant, then test it.'),
      h(
        'section.panel',
        { 'aria-labelledby': 'connect-server' },
        h('h2', { id: 'connect-server' }, 'This server'),
        h(
          'dl.facts',
          h('dt', 'Address'),
          h('dd', h('code', info.publicUrl)),
          h('dt', 'MCP endpoint'),
          h('dd', h('code', info.mcpUrl)),
          h('dt', 'Keys'),
          h('dd', info.keyRequired ? 'required (the server runs with API_KEY)' : 'optional: without one, anonymous rate limits apply'),
        ),
        info.warning
          ? h('div.alert.warn', { role: 'note' }, info.warning)
          : h('p.small.muted', info.source === 'config' ? 'Set by SHELFMARK_PUBLIC_URL.' : 'The address this page was opened at.'),
      ),
      h(
        'section.panel',
        { 'aria-labelledby': 'connect-key' },
        h('h2', { id: 'connect-key' }, '1. Choose a key'),
        keyErrors,
        field('Key', keyMode),
        newPart,
        pastePart,
        keyStatus,
      ),
      h('section.panel', { 'aria-labelledby': 'connect-client' }, h('h2', { id: 'connect-client' }, '2. Copy the setup for your assistant'), setupsSlot),
      h(
        'section.panel',
        { 'aria-labelledby': 'connect-test' },
        h('h2', { id: 'connect-test' }, '3. Test it'),
        h(
          'p.small.muted',
          'Makes the calls an assistant makes — list the tools, resolve a library, ask its docs — with the chosen key and nothing else, and shows what the assistant would read.',
        ),
        h('div.row', field('Library', library), field('Question', question), h('div.field', testButton)),
        testSlot,
      ),
    ),
  );
  showKeyMode();
}

/** One JSON-RPC call to this server's /mcp with the key alone; the answer may come as JSON or an event stream. */
async function mcpCall(key, id, method, params) {
  const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
  if (key) headers.Authorization = `Bearer ${key}`;
  const res = await fetch(`${location.origin}${ROOT}/mcp`, {
    method: 'POST',
    headers,
    credentials: 'omit',
    cache: 'no-store',
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
  });
  const text = await res.text();
  const payload = (res.headers.get('content-type') ?? '').includes('text/event-stream')
    ? (text
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trim())
        .pop() ?? '')
    : text;
  let body;
  try {
    body = JSON.parse(payload);
  } catch {
    body = null;
  }
  if (!res.ok || !body || body.error)
    throw Object.assign(new Error(body?.error?.message ?? body?.message ?? `The server answered ${res.status}.`), { status: res.status });
  return body.result;
}

async function runTest(slot, { key, libraryId, question, keyRequired }) {
  const steps = h('ol.test-steps');
  mount(slot, steps);
  const step = (title, ...content) => steps.append(h('li', h('strong', title), ...content));
  if (!key && keyRequired) {
    step('No key chosen', h('p', 'This server requires a key: choose one above first.'));
    return;
  }
  try {
    const init = await mcpCall(key, 1, 'initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'shelfmark-dashboard-test', version: '1' },
    });
    step('Connected', h('p.small', `${init.serverInfo?.name ?? 'server'} ${init.serverInfo?.version ?? ''} · ${key ? 'with the key' : 'without a key'}`));
    const tools = await mcpCall(key, 2, 'tools/list', {});
    step('Tools the assistant sees', h('p', (tools.tools ?? []).map((t) => t.name).join(', ')));
    if (!libraryId) return;
    const name = libraryId.split('/').pop();
    const resolved = await mcpCall(key, 3, 'tools/call', { name: 'resolve-library-id', arguments: { libraryName: name, query: question } });
    step(`resolve-library-id “${name}”`, h('pre.tool-output', { tabindex: '0', 'aria-label': 'resolve-library-id answer' }, resolved.content?.[0]?.text ?? ''));
    const docs = await mcpCall(key, 4, 'tools/call', { name: 'query-docs', arguments: { libraryId, query: question, tokens: 1500 } });
    step(`query-docs ${libraryId}`, h('pre.tool-output', { tabindex: '0', 'aria-label': 'query-docs answer' }, docs.content?.[0]?.text ?? ''));
    slot.prepend(
      h(
        'div.alert.ok',
        { role: 'status' },
        docs.isError ? 'The setup works; this question found nothing (see below).' : 'The setup works: this is what your assistant will see.',
      ),
    );
  } catch (error) {
    showError(slot, Object.assign(error, { code: error.status === 401 ? 'invalid_api_key' : error.status === 429 ? 'rate_limit_exceeded' : 'network_error' }));
    slot.append(steps);
  }
}
