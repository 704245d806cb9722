// The toolbar popup: what this page is, whether the vault has it, and a Save button.

const KIND_LABELS = {
  arxiv: 'arXiv paper', doi: 'Article with a DOI', pdf: 'PDF', youtube: 'YouTube video',
  web: 'Web page',
};

const $ = (id) => document.getElementById(id);

// The toolbar popup works on the active tab. `popup.html?tab=<id>` targets that tab
// instead: tests open the popup as a page of its own, which is then the active tab.
async function targetTab() {
  const wanted = new URLSearchParams(location.search).get('tab');
  if (wanted) return chrome.tabs.get(Number(wanted));
  const [tab] = await chrome.tabs.query({active: true, lastFocusedWindow: true});
  return tab;
}

async function detect(tab) {
  try {
    await chrome.scripting.executeScript({target: {tabId: tab.id}, files: ['detect.js']});
    const [{result}] = await chrome.scripting.executeScript({
      target: {tabId: tab.id}, func: (title) => detectPage(title), args: [tab.title || ''],
    });
    if (result) return result;
  } catch {
    // Chrome's own pages and the PDF viewer take no scripts: judge by the address.
  }
  return classify({url: tab.url || '', title: tab.title || ''});
}

function say(text, isError = false) {
  $('status').textContent = text;
  $('status').classList.toggle('error', isError);
}

async function main() {
  const tab = await targetTab();
  if (!tab) return say('There is no tab to save.', true);
  const page = await detect(tab);
  $('kind').textContent = KIND_LABELS[page.kind];
  $('kind').dataset.kind = page.kind;
  $('title').textContent = page.title;
  $('ids').textContent = [page.arxiv && `arXiv:${page.arxiv}`, page.doi && `doi:${page.doi}`]
    .filter(Boolean).join('  ');
  if (!/^https?:/.test(page.url)) return say('vaultd saves http and https pages only.', true);

  const status = await chrome.runtime.sendMessage({type: 'status'});
  if (!status.ok) return say(status.error, true);
  const found = await chrome.runtime.sendMessage({type: 'lookup', page});
  if (found.ok && found.data.found) {
    $('in-vault').textContent = `Already in your vault: ${found.data.cite_key || found.data.web}`;
    $('in-vault').hidden = false;
  }
  const save = $('save');
  save.disabled = false;
  save.addEventListener('click', async () => {
    save.disabled = true;
    say('Saving…');
    const answer = await chrome.runtime.sendMessage({type: 'capture', tabId: tab.id, page});
    if (answer.ok) say(`Saved to ${answer.data.saved}`);
    else {
      say(answer.error, true);
      save.disabled = false;
    }
  });
}

main().catch((err) => say(err.message, true));
