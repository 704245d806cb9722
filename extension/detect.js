// What kind of page is this, and which ids does it carry?
//
// The popup injects this file into the tab (chrome.scripting.executeScript with
// files: ['detect.js']) and then calls detectPage() there. The popup also loads it to
// classify a tab it cannot inject into (Chrome's own pages) from its address alone.
// Only function declarations at the top level: the file may be injected into the same
// tab again, and a second `const` at the top level would be a SyntaxError.

// The facts of the current document, classified. `tabTitle` stands in for an empty
// document.title (Chrome's PDF viewer has none; the tab shows the PDF's own title).
function detectPage(tabTitle) {
  var metas = [];
  for (var el of document.querySelectorAll('meta[name], meta[property]')) {
    var name = el.getAttribute('name') || el.getAttribute('property');
    var content = el.getAttribute('content');
    if (name && content) metas.push([name, content]);
  }
  var jsonld = [];
  for (var script of document.querySelectorAll('script[type="application/ld+json"]')) {
    try {
      jsonld.push(JSON.parse(script.textContent));
    } catch (e) {
      // A page's broken JSON-LD is the page's problem; the rest still counts.
    }
  }
  var coins = Array.from(document.querySelectorAll('span.Z3988[title]'), (s) => s.title);
  var embed = document.querySelector('embed[type="application/pdf"]');
  return classify({
    url: location.href,
    title: document.title || tabTitle || '',
    contentType: document.contentType,
    pdfEmbed: Boolean(embed) && document.body !== null && document.body.children.length === 1,
    metas: metas,
    jsonld: jsonld,
    coins: coins,
  });
}

// Pure: {url, title, contentType, pdfEmbed, metas: [[name, content]], jsonld: [objects],
// coins: [COinS title strings]} → {kind, url, title, doi, arxiv, meta}.
function classify(facts) {
  var MAX_META_KEYS = 50;
  var MAX_META_CHARS = 2048;
  var MAX_TITLE_CHARS = 1000;
  var url = facts.url || '';
  var metas = facts.metas || [];
  var articles = scholarlyArticles(facts.jsonld || []);
  var article = articles[0] || null;

  var metaValue = (name) => {
    var hit = metas.find(([key]) => key.toLowerCase() === name);
    return hit ? hit[1] : '';
  };
  var arxiv = arxivId(url) || arxivId(metaValue('citation_arxiv_id'));
  var doi = findDoi(metaValue('citation_doi'))
    || metas.filter(([key]) => key.toLowerCase() === 'dc.identifier')
      .map(([, value]) => findDoi(value)).find(Boolean)
    || articles.map(articleDoi).find(Boolean)
    || (facts.coins || []).map(coinsDoi).find(Boolean)
    || findDoi(safeDecode(url.split(/[?#]/)[0]));

  var meta = {};
  var put = (key, value) => {
    if (typeof value !== 'string' || !value.trim()) return;
    if (!(key in meta) && Object.keys(meta).length >= MAX_META_KEYS) return;
    var joined = key in meta ? meta[key] + '; ' + value.trim() : value.trim();
    meta[key] = joined.slice(0, MAX_META_CHARS);
  };
  for (var [key, value] of metas) {
    if (/^(citation_|dc\.|dcterms\.)/i.test(key)) put(key, value);
  }
  if (article) {
    put('jsonld:headline', text(article.headline));
    put('jsonld:name', text(article.name));
    put('jsonld:author', names(article.author));
    put('jsonld:datePublished', text(article.datePublished));
  }

  var title = metaValue('citation_title')
    || (article && (text(article.headline) || text(article.name)))
    || facts.title || url;
  var kind = arxiv ? 'arxiv'
    : isPdf(facts, url) ? 'pdf'
    : doi ? 'doi'
    : youtubeUrl(url) ? 'youtube'
    : 'web';
  return {kind: kind, url: url, title: title.trim().slice(0, MAX_TITLE_CHARS), doi: doi || null,
          arxiv: arxiv || null, meta: meta};
}

function isPdf(facts, url) {
  var path = '';
  try { path = new URL(url).pathname; } catch (e) { /* not a URL: not a PDF by its name */ }
  return facts.contentType === 'application/pdf' || Boolean(facts.pdfEmbed)
    || /\.pdf$/i.test(path);
}

// arXiv id without version from an arxiv.org abs/pdf/html URL or a bare id ("arXiv:…").
function arxivId(value) {
  if (!value) return '';
  var m = /arxiv\.org\/(?:abs|pdf|html)\/([a-z-]+(?:\.[a-z]{2})?\/\d{7}|\d{4}\.\d{4,5})/i
    .exec(value)
    || /^\s*(?:arxiv:)?([a-z-]+(?:\.[a-z]{2})?\/\d{7}|\d{4}\.\d{4,5})(?:v\d+)?\s*$/i.exec(value);
  return m ? m[1] : '';
}

function findDoi(value) {
  var m = /\b(10\.\d{4,9}\/[^\s"<>]+)/.exec(value || '');
  return m ? m[1].replace(/[.,;:)\]]+$/, '') : '';
}

function safeDecode(value) {
  try { return decodeURIComponent(value); } catch (e) { return value; }
}

// COinS: rft_id=info:doi/<doi> in the span's title.
function coinsDoi(title) {
  var ids = new URLSearchParams(title).getAll('rft_id');
  var hit = ids.find((id) => id.toLowerCase().startsWith('info:doi/'));
  return hit ? findDoi(hit.slice('info:doi/'.length)) : '';
}

// Every ScholarlyArticle in the JSON-LD blocks, looking into arrays and @graph.
function scholarlyArticles(blocks) {
  var found = [];
  var visit = (node) => {
    if (Array.isArray(node)) { node.forEach(visit); return; }
    if (!node || typeof node !== 'object') return;
    var types = [].concat(node['@type'] || []);
    if (types.some((t) => typeof t === 'string' && /ScholarlyArticle$/.test(t))) found.push(node);
    if (node['@graph']) visit(node['@graph']);
  };
  visit(blocks);
  return found;
}

// A DOI from `doi`, `identifier` (string, PropertyValue or list), `sameAs` or `@id`.
function articleDoi(article) {
  var candidates = [].concat(article.doi || [], article.identifier || [], article.sameAs || [],
                             article['@id'] || []);
  for (var c of candidates) {
    if (typeof c === 'string') {
      var doi = /doi\.org\//i.test(c) || /^\s*(doi:)?10\./i.test(c) ? findDoi(c) : '';
      if (doi) return doi;
    } else if (c && typeof c === 'object' && /^doi$/i.test(String(c.propertyID || ''))) {
      var value = findDoi(String(c.value || ''));
      if (value) return value;
    }
  }
  return '';
}

function text(value) {
  return typeof value === 'string' ? value : '';
}

function names(author) {
  return [].concat(author || [])
    .map((a) => (typeof a === 'string' ? a : a && typeof a.name === 'string' ? a.name : ''))
    .filter(Boolean).join('; ');
}

function youtubeUrl(url) {
  var u;
  try { u = new URL(url); } catch (e) { return false; }
  var host = u.hostname.replace(/^(www|m|music)\./, '');
  if (host === 'youtu.be') return /^\/[\w-]{6,}/.test(u.pathname);
  if (host !== 'youtube.com' && host !== 'youtube-nocookie.com') return false;
  return (u.pathname === '/watch' && u.searchParams.has('v'))
    || /^\/(shorts|embed|live)\/[\w-]{6,}/.test(u.pathname);
}
