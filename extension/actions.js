// Agent actions relayed by the bridge (docs/bridge.md, POST /command), run on the active
// tab. Loaded into the service worker by background.js (importScripts).
//
// Refused unless the options turn agent actions on and allow the tab's origin (for
// navigate, the target's). Selectors and text travel to the page as arguments of
// executeScript, never as code; there is no eval.

const MAX_TEXT_BYTES = 256 * 1024;
const MAX_SCREENSHOT_CHARS = 5 * 1024 * 1024;
const MAX_WAIT_MS = 30000;
const MAX_SELECTOR_CHARS = 512;
const MAX_TYPED_CHARS = 10000;

const VERBS = {ping, tab_info: tabInfo, navigate, click, type: typeText, wait, extract, screenshot};

// `s`: the extension's stored options. Throws an Error whose message is the refusal.
async function runCommand(action, params, s) {
  if (!Object.hasOwn(VERBS, action)) throw new Error(`The extension has no action "${action}".`);
  if (!s.actionsEnabled) {
    throw new Error('Agent actions are off in the vaultd extension; turn them on in its options.');
  }
  if (action === 'ping') return ping();
  const [tab] = await chrome.tabs.query({active: true, lastFocusedWindow: true});
  if (!tab) throw new Error('There is no active tab.');
  const target = action === 'navigate' ? httpUrl(params.url) : tab.url;
  if (!target) {
    throw new Error('The extension cannot see this tab\'s address; open the vaultd popup on it first.');
  }
  const origin = new URL(target).origin;
  if (!s.origins.includes(origin)) {
    throw new Error(`${origin} is not on the allowed origins in the vaultd extension's options.`);
  }
  return VERBS[action](tab, params);
}

function ping() {
  return {pong: true, version: chrome.runtime.getManifest().version};
}

function tabInfo(tab) {
  return {id: tab.id, url: tab.url, title: tab.title, status: tab.status};
}

function httpUrl(value) {
  if (typeof value !== 'string') throw new Error('navigate needs a "url" string.');
  let url;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`"${value.slice(0, 200)}" is not a URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error('navigate only opens http and https URLs.');
  }
  return url.href;
}

function selectorOf(params, required = true) {
  const selector = params.selector;
  if (selector === undefined && !required) return null;
  if (typeof selector !== 'string' || !selector || selector.length > MAX_SELECTOR_CHARS) {
    throw new Error(`"selector" must be a CSS selector of 1 to ${MAX_SELECTOR_CHARS} characters.`);
  }
  return selector;
}

// Runs `func(...args)` in the tab; the selector and text travel as arguments, never as code.
async function inTab(tab, func, args) {
  let results;
  try {
    results = await chrome.scripting.executeScript({target: {tabId: tab.id}, func, args});
  } catch (err) {
    throw new Error(`The extension cannot act on this tab (${err.message}).`);
  }
  const result = results[0]?.result;
  if (result && result.error) throw new Error(result.error);
  return result;
}

function navigate(tab, params) {
  const url = httpUrl(params.url);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => done({url, loaded: false}), MAX_WAIT_MS);
    const onUpdated = (tabId, change, updated) => {
      if (tabId === tab.id && change.status === 'complete') {
        done({url: updated.url || url, loaded: true});
      }
    };
    function stop() {
      clearTimeout(timer);
      chrome.tabs.onUpdated.removeListener(onUpdated);
    }
    function done(result) {
      stop();
      resolve(result);
    }
    chrome.tabs.onUpdated.addListener(onUpdated);
    chrome.tabs.update(tab.id, {url}).catch((err) => {
      stop();
      reject(new Error(`Could not open ${url}: ${err.message}`));
    });
  });
}

function click(tab, params) {
  return inTab(tab, (selector) => {
    let el;
    try {
      el = document.querySelector(selector);
    } catch {
      return {error: `"${selector}" is not a valid CSS selector.`};
    }
    if (!el) return {error: `No element matches "${selector}".`};
    el.click();
    return {clicked: true};
  }, [selectorOf(params)]);
}

function typeText(tab, params) {
  const text = params.text;
  if (typeof text !== 'string' || text.length > MAX_TYPED_CHARS) {
    throw new Error(`"text" must be a string of at most ${MAX_TYPED_CHARS} characters.`);
  }
  return inTab(tab, (selector, value) => {
    let el;
    try {
      el = document.querySelector(selector);
    } catch {
      return {error: `"${selector}" is not a valid CSS selector.`};
    }
    if (!el) return {error: `No element matches "${selector}".`};
    el.focus();
    if (el.isContentEditable) el.textContent = value;
    else if ('value' in el) el.value = value;
    else return {error: `"${selector}" is not a field that takes text.`};
    el.dispatchEvent(new Event('input', {bubbles: true}));
    el.dispatchEvent(new Event('change', {bubbles: true}));
    return {typed: value.length};
  }, [selectorOf(params), text]);
}

function wait(tab, params) {
  const timeout = params.timeout_ms ?? 5000;
  if (!Number.isInteger(timeout) || timeout < 0 || timeout > MAX_WAIT_MS) {
    throw new Error(`"timeout_ms" must be a whole number from 0 to ${MAX_WAIT_MS}.`);
  }
  return inTab(tab, (selector, ms) => new Promise((resolve) => {
    const started = Date.now();
    const poll = () => {
      let el;
      try {
        el = document.querySelector(selector);
      } catch {
        return resolve({error: `"${selector}" is not a valid CSS selector.`});
      }
      if (el) return resolve({found: true, waited_ms: Date.now() - started});
      if (Date.now() - started >= ms) {
        return resolve({error: `No element matched "${selector}" within ${ms} ms.`});
      }
      setTimeout(poll, 100);
    };
    poll();
  }), [selectorOf(params), timeout]);
}

function extract(tab, params) {
  return inTab(tab, (selector, maxBytes) => {
    let nodes;
    try {
      nodes = selector ? Array.from(document.querySelectorAll(selector)) : [document.body];
    } catch {
      return {error: `"${selector}" is not a valid CSS selector.`};
    }
    const text = nodes.filter(Boolean).map((n) => n.innerText).join('\n\n');
    const bytes = new TextEncoder().encode(text);
    const truncated = bytes.length > maxBytes;
    const kept = truncated
      ? new TextDecoder().decode(bytes.slice(0, maxBytes)).replace(/\uFFFD$/, '') : text;
    return {url: location.href, title: document.title, matches: nodes.length, text: kept,
            truncated};
  }, [selectorOf(params, false), MAX_TEXT_BYTES]);
}

async function screenshot(tab) {
  let dataUrl;
  try {
    dataUrl = await chrome.tabs.captureVisibleTab(tab.windowId, {format: 'png'});
  } catch (err) {
    throw new Error(`Chrome refused the screenshot (${err.message}); `
      + 'open the vaultd popup on this tab first.');
  }
  if (dataUrl.length > MAX_SCREENSHOT_CHARS) {
    throw new Error('The screenshot is over 5 MB; make the window smaller.');
  }
  return {data_url: dataUrl};
}
