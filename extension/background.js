// The service worker: one WebSocket to the vaultd bridge (docs/bridge.md), the agent
// actions it relays (actions.js), and the HTTP calls the popup and options page ask for.

importScripts('actions.js');

const DEFAULT_PORT = 7600;
const PROTOCOL_VERSION = 1;
const RETRY_MIN_MS = 1000;
const RETRY_MAX_MS = 60000;
const STATUS_TIMEOUT_MS = 5000;
const CAPTURE_TIMEOUT_MS = 120000;
const MAX_HTML_BYTES = 5 * 1024 * 1024;
// Chrome stops an idle worker after 30 s; WebSocket traffic counts as activity.
const KEEPALIVE_MS = 20000;
const CLOSE_BAD_TOKEN = 4401;
const CLOSE_FOREIGN_ORIGIN = 4403;

const BADGES = {
  connected: ['', '#2e7d32', 'vaultd: connected'],
  unpaired: ['!', '#b26a00', 'vaultd: not paired. Open the options and paste the token.'],
  foreign: ['!', '#b26a00', 'vaultd is paired with another extension. Run `vaultd bridge token --reset`.'],
  down: ['×', '#b00020', 'vaultd is not running'],
};

let socket = null;
let connecting = null;
let retryMs = RETRY_MIN_MS;
let retryTimer = null;
let keepalive = null;
let state = 'down';

async function settings() {
  return chrome.storage.local.get({token: '', port: DEFAULT_PORT, actionsEnabled: false,
                                   origins: []});
}

function setState(next) {
  state = next;
  const [text, color, title] = BADGES[next];
  chrome.action.setBadgeText({text});
  chrome.action.setBadgeBackgroundColor({color});
  chrome.action.setTitle({title});
}

// --- the WebSocket ---------------------------------------------------------------

// Idempotent: an open or opening socket is kept.
function connect() {
  connecting ??= open().finally(() => { connecting = null; });
  return connecting;
}

async function open() {
  if (socket && socket.readyState <= WebSocket.OPEN) return;
  clearTimeout(retryTimer);
  const s = await settings();
  if (!s.token) {
    setState('unpaired');
    return;
  }
  const ws = new WebSocket(`ws://127.0.0.1:${s.port}/ws`);
  socket = ws;
  ws.onopen = () => {
    ws.send(JSON.stringify({type: 'hello', token: s.token, version: PROTOCOL_VERSION,
                            actions: actionsOf(s)}));
  };
  ws.onmessage = (event) => onMessage(ws, event.data);
  ws.onclose = (event) => {
    if (socket !== ws) return; // replaced on purpose (new token or port)
    clearInterval(keepalive);
    socket = null;
    if (event.code === CLOSE_BAD_TOKEN) return setState('unpaired');
    if (event.code === CLOSE_FOREIGN_ORIGIN) return setState('foreign');
    setState('down');
    retryTimer = setTimeout(connect, retryMs);
    retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
  };
}

function reconnect() {
  const old = socket;
  socket = null;
  clearInterval(keepalive);
  if (old) old.close(1000, 'settings changed');
  retryMs = RETRY_MIN_MS;
  return connect();
}

// While agent actions are on, the worker must stay up to receive commands: restating the
// settings every 20 s is traffic the bridge accepts. Off, the worker may sleep; the popup
// wakes it and it reconnects.
function keepAlive(ws) {
  clearInterval(keepalive);
  keepalive = setInterval(async () => {
    const s = await settings();
    if (s.actionsEnabled && ws.readyState === WebSocket.OPEN) {
      ws.send(JSON.stringify({type: 'settings', actions: actionsOf(s)}));
    }
  }, KEEPALIVE_MS);
}

function actionsOf(s) {
  return {enabled: Boolean(s.actionsEnabled), origins: s.origins};
}

async function onMessage(ws, data) {
  let msg;
  try {
    msg = JSON.parse(data);
  } catch {
    return;
  }
  if (msg.type === 'welcome') {
    retryMs = RETRY_MIN_MS;
    setState('connected');
    keepAlive(ws);
  } else if (msg.type === 'command') {
    let reply;
    try {
      const result = await runCommand(msg.action, msg.params || {}, await settings());
      reply = {type: 'result', id: msg.id, ok: true, result};
    } catch (err) {
      reply = {type: 'result', id: msg.id, ok: false, error: err.message};
    }
    if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(reply));
  }
}

// --- HTTP for the popup and the options page -------------------------------------

async function api(method, path, {body, token, port, timeoutMs = STATUS_TIMEOUT_MS} = {}) {
  const s = await settings();
  token ||= s.token;
  port ||= s.port;
  if (!token) return {ok: false, error: 'Not paired: open options'};
  const headers = {Authorization: `Bearer ${token}`};
  if (body) headers['Content-Type'] = 'application/json';
  let res;
  try {
    res = await fetch(`http://127.0.0.1:${port}${path}`, {
      method, headers, body: body && JSON.stringify(body), signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    if (err.name === 'TimeoutError') return {ok: false, error: 'vaultd did not answer in time.'};
    return {ok: false, error: 'vaultd is not running'};
  }
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    return {ok: false, error: data.error || `vaultd answered ${res.status}.`};
  }
  return {ok: true, data};
}

function lookup(page) {
  const query = new URLSearchParams({url: page.url});
  if (page.arxiv) query.set('arxiv', page.arxiv);
  if (page.doi) query.set('doi', page.doi);
  return api('GET', `/lookup?${query}`);
}

async function capture(tabId, page) {
  const body = {url: page.url, title: page.title, kind: page.kind, meta: page.meta};
  if (page.doi) body.doi = page.doi;
  if (page.arxiv) body.arxiv = page.arxiv;
  try {
    if (page.kind === 'pdf') {
      body.pdf_base64 = await pdfBase64(tabId, page.url);
      body.pdf_url = page.url;
    } else if (page.kind === 'web') {
      body.html = await snapshot(tabId);
    }
  } catch (err) {
    return {ok: false, error: err.message};
  }
  return api('POST', '/capture', {body, timeoutMs: CAPTURE_TIMEOUT_MS});
}

// The PDF's bytes with the user's session: the extension's own fetch (host permission or
// the activeTab grant), else a fetch from inside the tab, which is same-origin there.
async function pdfBase64(tabId, url) {
  let base64;
  try {
    const res = await fetch(url, {credentials: 'include'});
    if (!res.ok) throw new Error(`the server answered ${res.status}`);
    base64 = toBase64(new Uint8Array(await res.arrayBuffer()));
  } catch (err) {
    const [injected] = await chrome.scripting.executeScript({
      target: {tabId},
      func: async (pdfUrl) => {
        const res = await fetch(pdfUrl, {credentials: 'include'});
        const bytes = new Uint8Array(await res.arrayBuffer());
        let binary = '';
        for (let i = 0; i < bytes.length; i += 0x8000) {
          binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
        }
        return btoa(binary);
      },
      args: [url],
    }).catch(() => [{}]);
    base64 = injected.result;
    if (!base64) throw new Error(`Could not download the PDF (${err.message}).`);
  }
  if (!base64.startsWith('JVBERi0')) { // "%PDF-"
    throw new Error('What this tab shows is not a PDF file (it does not start with %PDF-).');
  }
  return base64;
}

// Chunks of 3 × 0x4000 bytes encode to whole base64 groups, so the pieces join cleanly.
function toBase64(bytes) {
  const CHUNK_BYTES = 3 * 0x4000;
  const parts = [];
  for (let i = 0; i < bytes.length; i += CHUNK_BYTES) {
    parts.push(btoa(String.fromCharCode(...bytes.subarray(i, i + CHUNK_BYTES))));
  }
  return parts.join('');
}

async function snapshot(tabId) {
  const [{result}] = await chrome.scripting.executeScript({
    target: {tabId}, func: () => document.documentElement.outerHTML,
  });
  if (new TextEncoder().encode(result).length > MAX_HTML_BYTES) {
    throw new Error('This page is over 5 MB of HTML; vaultd saves pages up to 5 MB.');
  }
  return result;
}

// --- wiring ----------------------------------------------------------------------

chrome.runtime.onMessage.addListener((msg, sender, sendResponse) => {
  if (sender.id !== chrome.runtime.id || !sender.url?.startsWith(location.origin)) return false;
  connect();
  const handlers = {
    status: () => api('GET', '/status', {token: msg.token, port: msg.port})
      .then((answer) => ({...answer, socket: state})),
    lookup: () => lookup(msg.page),
    capture: () => capture(msg.tabId, msg.page),
  };
  const handler = handlers[msg.type];
  if (!handler) return false;
  handler().then(sendResponse, (err) => sendResponse({ok: false, error: err.message}));
  return true;
});

chrome.storage.onChanged.addListener(async (changes, area) => {
  if (area !== 'local') return;
  if (changes.token || changes.port) {
    reconnect();
  } else if ((changes.actionsEnabled || changes.origins) && socket?.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify({type: 'settings', actions: actionsOf(await settings())}));
  }
});

chrome.runtime.onStartup.addListener(connect);
chrome.runtime.onInstalled.addListener(connect);
connect();
