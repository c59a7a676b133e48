/// The stylesheet and the search script of a generated site (no external resources: no fonts,
/// no frameworks, nothing fetched from elsewhere).
public enum SiteAssets {
    /// `_quire/style.css`: readable text, light and dark schemes, tables, task lists, code.
    public static let stylesheet = """
        :root { --text: #1f2328; --muted: #59636e; --line: #d1d9e0; --accent: #0969da; --code: #f6f8fa; --bg: #ffffff; --broken: #cf222e; }
        @media (prefers-color-scheme: dark) {
          :root { --text: #e6edf3; --muted: #9198a1; --line: #3d444d; --accent: #4493f8; --code: #151b23; --bg: #0d1117; --broken: #f85149; }
        }
        * { box-sizing: border-box; }
        body { margin: 0; background: var(--bg); color: var(--text); font: 16px/1.6 system-ui, -apple-system, "Segoe UI", sans-serif; }
        header.site { display: flex; gap: 1rem; align-items: center; padding: .6rem 1rem; border-bottom: 1px solid var(--line); flex-wrap: wrap; }
        header.site .home { font-weight: 600; }
        header.site form.search { margin-left: auto; }
        input[type=search] { font: inherit; padding: .25rem .5rem; border: 1px solid var(--line); border-radius: 6px; background: var(--bg); color: var(--text); min-width: 14rem; }
        main { max-width: 46rem; margin: 0 auto; padding: 1rem 1.25rem 3rem; }
        a { color: var(--accent); text-decoration: none; }
        a:hover { text-decoration: underline; }
        .crumbs, .meta, .summary, .context, .empty { color: var(--muted); font-size: .9rem; }
        .meta span + span::before { content: "· "; }
        .meta .tag { margin-left: .4rem; }
        .context { display: block; }
        .broken-link { color: var(--broken); text-decoration: underline dotted; cursor: help; }
        a.embed::before { content: "↳ "; }
        h1, h2, h3, h4, h5, h6 { line-height: 1.25; margin: 1.5em 0 .5em; }
        h1.title, .body > h1:first-child { margin-top: .5em; }
        pre, code { font: .9em/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: var(--code); border-radius: 6px; }
        code { padding: .1em .3em; }
        pre { padding: .8rem 1rem; overflow-x: auto; }
        pre code { padding: 0; background: none; }
        blockquote { margin: 0; padding: 0 1rem; border-left: .25rem solid var(--line); color: var(--muted); }
        .callout { margin: 1rem 0; padding: .6rem 1rem; border-left: .25rem solid var(--accent); border-radius: 4px; background: var(--code); }
        .callout[data-callout=warning], .callout[data-callout=caution], .callout[data-callout=attention] { border-left-color: #d97706; }
        .callout[data-callout=danger], .callout[data-callout=error], .callout[data-callout=bug], .callout[data-callout=failure] { border-left-color: var(--broken); }
        .callout-title { font-weight: 600; }
        summary.callout-title { cursor: pointer; }
        .callout-content > :last-child { margin-bottom: 0; }
        div.embed { margin: 1rem 0; padding: 0 1rem; border-left: .25rem solid var(--line); }
        table { border-collapse: collapse; display: block; overflow-x: auto; }
        th, td { border: 1px solid var(--line); padding: .3rem .7rem; }
        img { max-width: 100%; }
        li > input[type=checkbox] { margin-right: .4rem; }
        ul:has(> li > input[type=checkbox]) { list-style: none; padding-left: 1.2rem; }
        hr { border: 0; border-top: 1px solid var(--line); }
        .footnotes { font-size: .9rem; border-top: 1px solid var(--line); margin-top: 2rem; }
        aside.backlinks { max-width: 46rem; margin: 2rem auto 0; border-top: 1px solid var(--line); }
        nav.toc a { margin-right: .8rem; white-space: nowrap; }
        .search-results { max-width: 46rem; margin: 0 auto; padding: 0 1.25rem; }
        .search-results ol, ol.results { padding-left: 1.2rem; }
        .results li { margin-bottom: .6rem; }
        .results .snippet { display: block; color: var(--muted); font-size: .9rem; }
        """

    /// `_quire/search.js`: loads the index (`search-index.json` over http, `search-index.js` from
    /// `file://`, where browsers refuse `fetch`), matches every word of the query in titles, tags
    /// and text (case and accents ignored), and lists the hits with a snippet. Builds its output
    /// with DOM nodes and `textContent` only: a note's text never becomes markup.
    public static let searchScript = """
        (function () {
          'use strict';
          var root = document.body.getAttribute('data-root') || '';
          var index = null;
          var waiting = [];

          function fold(text) {
            return text.normalize('NFD').replace(/[\\u0300-\\u036f]/g, '').toLowerCase();
          }

          function prepare(entry) {
            entry.foldedTitle = fold(entry.title);
            entry.foldedTags = fold(entry.tags.join(' '));
            entry.foldedText = fold(entry.text);
            return entry;
          }

          function ready(data) {
            index = (data || []).map(prepare);
            var callbacks = waiting;
            waiting = [];
            callbacks.forEach(function (callback) { callback(index); });
          }

          function loadScript() {
            var script = document.createElement('script');
            script.src = root + '_quire/search-index.js';
            script.onload = function () { ready(window.quireSearchIndex); };
            script.onerror = function () { ready([]); };
            document.head.appendChild(script);
          }

          function load(callback) {
            if (index) { callback(index); return; }
            waiting.push(callback);
            if (waiting.length > 1) { return; }
            if (location.protocol === 'http:' || location.protocol === 'https:') {
              fetch(root + '_quire/search-index.json')
                .then(function (response) { if (!response.ok) { throw new Error(response.status); } return response.json(); })
                .then(ready, loadScript);
            } else {
              loadScript();
            }
          }

          function search(query) {
            var words = fold(query).split(/\\s+/).filter(function (word) { return word.length > 0; });
            if (words.length === 0) { return []; }
            var hits = [];
            index.forEach(function (entry) {
              var score = 0;
              for (var i = 0; i < words.length; i++) {
                var word = words[i];
                var inTitle = entry.foldedTitle.indexOf(word) >= 0;
                var inTags = entry.foldedTags.indexOf(word) >= 0;
                var inText = entry.foldedText.indexOf(word) >= 0;
                if (!inTitle && !inTags && !inText) { return; }
                score += (inTitle ? 10 : 0) + (inTags ? 5 : 0) + (inText ? 1 : 0);
              }
              hits.push({ entry: entry, score: score, word: words[0] });
            });
            hits.sort(function (a, b) {
              return b.score - a.score || (a.entry.url < b.entry.url ? -1 : a.entry.url > b.entry.url ? 1 : 0);
            });
            return hits;
          }

          function snippet(entry, word) {
            var at = entry.text.toLowerCase().indexOf(word);
            var start = at < 0 ? 0 : Math.max(0, at - 60);
            var text = entry.text.slice(start, start + 180);
            return (start > 0 ? '…' : '') + text + (start + 180 < entry.text.length ? '…' : '');
          }

          function show(list, hits, limit) {
            while (list.firstChild) { list.removeChild(list.firstChild); }
            hits.slice(0, limit).forEach(function (hit) {
              var item = document.createElement('li');
              var link = document.createElement('a');
              link.href = root + hit.entry.url;
              link.textContent = hit.entry.title;
              item.appendChild(link);
              var text = document.createElement('span');
              text.className = 'snippet';
              text.textContent = snippet(hit.entry, hit.word);
              item.appendChild(text);
              list.appendChild(item);
            });
          }

          function describe(count, query) {
            return count === 0 ? 'No note matches “' + query + '”.' : count + (count === 1 ? ' note matches' : ' notes match') + ' “' + query + '”.';
          }

          function live() {
            var input = document.getElementById('search-input');
            var panel = document.getElementById('search-results');
            if (!input || !panel) { return; }
            var timer = null;
            input.addEventListener('input', function () {
              clearTimeout(timer);
              timer = setTimeout(function () {
                var query = input.value.trim();
                if (!query) { panel.hidden = true; return; }
                load(function () {
                  var hits = search(query);
                  while (panel.firstChild) { panel.removeChild(panel.firstChild); }
                  var status = document.createElement('p');
                  status.className = 'summary';
                  status.textContent = describe(hits.length, query);
                  panel.appendChild(status);
                  var list = document.createElement('ol');
                  list.className = 'results';
                  panel.appendChild(list);
                  show(list, hits, 10);
                  panel.hidden = false;
                });
              }, 120);
            });
          }

          function page() {
            var list = document.getElementById('search-page-results');
            if (!list) { return; }
            var query = (new URLSearchParams(location.search).get('q') || '').trim();
            var input = document.getElementById('search-page-input');
            if (input) { input.value = query; }
            if (!query) { return; }
            load(function () {
              var hits = search(query);
              document.getElementById('search-page-status').textContent = describe(hits.length, query);
              show(list, hits, 200);
            });
          }

          live();
          page();
        })();

        """
}
