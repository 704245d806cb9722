// The options page: token, port, agent actions and their allowed origins.

const DEFAULT_PORT = 7600;
const $ = (id) => document.getElementById(id);

function say(text, isError = false) {
  $('status').textContent = text;
  $('status').classList.toggle('error', isError);
}

// "https://example.org/some/page" → "https://example.org"; anything but http(s) is refused.
function parseOrigins(text) {
  const origins = [];
  for (const line of text.split('\n').map((l) => l.trim()).filter(Boolean)) {
    let url;
    try {
      url = new URL(line);
    } catch {
      throw new Error(`"${line}" is not an origin such as https://example.org.`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new Error(`"${line}": only http and https origins can be allowed.`);
    }
    if (!origins.includes(url.origin)) origins.push(url.origin);
  }
  return origins;
}

function readPort() {
  const port = Number($('port').value);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error('The port must be a whole number from 1 to 65535.');
  }
  return port;
}

async function load() {
  const s = await chrome.storage.local.get({token: '', port: DEFAULT_PORT, actionsEnabled: false,
                                           origins: []});
  $('token').value = s.token;
  $('port').value = s.port;
  $('actions').checked = s.actionsEnabled;
  $('origins').value = s.origins.join('\n');
}

$('form').addEventListener('submit', async (event) => {
  event.preventDefault();
  try {
    const origins = parseOrigins($('origins').value);
    await chrome.storage.local.set({token: $('token').value.trim(), port: readPort(),
                                    actionsEnabled: $('actions').checked, origins});
    $('origins').value = origins.join('\n');
    say('Saved.');
  } catch (err) {
    say(err.message, true);
  }
});

$('test').addEventListener('click', async () => {
  say('Testing…');
  try {
    const answer = await chrome.runtime.sendMessage({type: 'status', token: $('token').value.trim(),
                                                     port: readPort()});
    if (!answer.ok) return say(answer.error, true);
    const d = answer.data;
    say(`Connected to vault "${d.vault}" (vaultd ${d.vaultd}); `
      + (d.agent ? 'the agent is running.' : 'the agent is not running: captures wait in Inbox/.'));
  } catch (err) {
    say(err.message, true);
  }
});

load();
