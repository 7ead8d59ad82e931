"""The JavaScript the browser tests run in a page (tests/browser/): each reads what a reader
would see and returns it as plain data, for the test to judge."""

# Every code block and table of the page that is wider than the window, or whose content is
# wider than its box while neither it nor a box around it scrolls sideways; and the number of
# tables that do scroll sideways (appendix B's, on a phone).
CLIPPED_JS = r"""(strict) => {
  const article = document.querySelector('article');
  if (!article) return [[], 0];
  const edge = document.documentElement.clientWidth + 1;
  const found = [];
  let scrolling = 0;
  // a box scrolls sideways when its overflow says so, unless it is laid out as a table
  const scrollsX = e => ['auto', 'scroll'].includes(getComputedStyle(e).overflowX) &&
                        getComputedStyle(e).display !== 'table';
  for (const box of article.querySelectorAll('pre > code, table')) {
    // the innermost box, this one or one around it, that scrolls and fits in the window
    let scroller = box;
    while (scroller && !(scrollsX(scroller) && scroller.getBoundingClientRect().right <= edge)) {
      scroller = scroller === article ? null : scroller.parentElement;
    }
    const what = (box.tagName + ' ' + box.textContent.trim().slice(0, 40)).replace(/\s+/g, ' ');
    const wider = box.getBoundingClientRect().right > edge;
    const overflows = box.scrollWidth > box.clientWidth + 1 && !scrollsX(box);
    if (!scroller && wider) found.push('wider than the window: ' + what);
    else if (!scroller && overflows) found.push('clipped: ' + what);
    else if (strict && box.tagName === 'CODE' && box.scrollWidth > box.clientWidth + 1) {
      found.push('needs a sideways scroll: ' + what);  // at full width every line shows
    }
    if (box.tagName === 'TABLE' && scroller && scroller.scrollWidth > scroller.clientWidth + 1) {
      scrolling += 1;
    }
  }
  return [found, scrolling];
}"""

# The code blocks whose copy button overlaps a character of the first line.
COVERED_JS = r"""(selector) => {
  const found = [];
  for (const pre of document.querySelectorAll('article pre')) {
    const code = pre.querySelector('code');
    const button = pre.parentElement.querySelector(selector) || pre.querySelector(selector);
    if (!code || !button) continue;
    const b = button.getBoundingClientRect();
    if (b.width === 0) continue;
    const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
    let node, covered = false;
    outer: while ((node = walker.nextNode())) {
      for (let i = 0; i < node.length; i++) {
        if (node.data[i] === '\n') break outer;
        if (node.data[i] === ' ') continue;
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        for (const r of range.getClientRects()) {
          if (r.right > b.left && r.left < b.right && r.bottom > b.top && r.top < b.bottom) {
            covered = true;
            break outer;
          }
        }
      }
    }
    if (covered) found.push(code.textContent.split('\n')[0].slice(0, 60));
  }
  return found;
}"""

# Powers left as 2^31 in the text of the article, outside code.
CARETS_JS = r"""() => {
  const article = document.querySelector('article');
  if (!article) return [[], 0];
  const copy = article.cloneNode(true);
  copy.querySelectorAll('code, pre, script').forEach(e => e.remove());
  return [copy.textContent.match(/\d\^\(?\d+/g) || [], article.querySelectorAll('sup').length];
}"""

# Every figure image: its src, whether it sits in a <figure> with a caption, its height.
FIGURES_JS = """() => Array.from(document.querySelectorAll('article img[src*="figures/"]')).map(
  img => [img.getAttribute('src'), !!img.closest('figure'),
          !!(img.closest('figure') && img.closest('figure').querySelector('figcaption')),
          img.getBoundingClientRect().height])"""

# The caption the lightbox shows under the opened figure (GLightbox's description), and the
# caption of the figure on the page; both as plain text, white space collapsed.
CAPTION_JS = """i => { const d = i.closest('.gslide').querySelector('.gslide-desc');
  return d && d.offsetHeight > 0 ? d.textContent.replace(/\\s+/g, ' ').trim() : null; }"""
PAGE_CAPTION_JS = """name => {
  const i = document.querySelector(`article img[src$="figures/${name}"]`);
  const c = i && i.closest('figure') && i.closest('figure').querySelector('figcaption');
  return c ? c.textContent.replace(/\\s+/g, ' ').trim() : null; }"""

# The glossary's marks on a page (links to appendix F with the definition as their title,
# docs/hooks/glossary.py): how many, how many in an admonition, the text of those inside code or
# a heading (there must be none), the terms marked more than once (none: only a first use is
# marked), and how many code elements hold a marked word all the same (so that "none inside
# code" is a finding, not an accident of the page).
GLOSSARY_JS = r"""() => {
  const marks = Array.from(document.querySelectorAll('article a.glossary-term[title]'));
  const words = [...new Set(marks.map(e => e.textContent))];
  const escape = s => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const word = words.length ? new RegExp('\\b(?:' + words.map(escape).join('|') + ')\\b') : null;
  const codes = Array.from(document.querySelectorAll('article code'));
  const targets = marks.map(e => e.getAttribute('href'));
  return {
    marked: marks.length,
    admonition: marks.filter(e => e.closest('.admonition')).length,
    in_code: marks.filter(e => e.closest('code, pre, kbd, samp, h1, h2, h3, h4, h5, h6'))
      .map(e => e.textContent),
    repeated: targets.filter((t, i) => targets.indexOf(t) !== i),
    code_with_word: word ? codes.filter(c => word.test(c.textContent)).length : 0,
  };
}"""

# Marks one glossary term for the pointer: in the prose or in an admonition, never in a heading
# or a link. Returns its word and its definition (Material removes the title while it shows).
PROBE_JS = r"""(inAdmonition) => {
  const mark = Array.from(document.querySelectorAll('article a.glossary-term[title]')).find(e =>
    !!e.closest('.admonition') === inAdmonition);
  if (!mark) return null;
  mark.id = 'glossary-probe';
  mark.scrollIntoView({block: 'center'});
  return [mark.textContent, mark.title];
}"""

# The tooltip on show: its text, its box, its text and background colours, its opacity.
TOOLTIP_JS = r"""() => {
  const tip = document.querySelector('.md-tooltip2--active');
  if (!tip) return null;
  const inner = tip.querySelector('.md-tooltip2__inner') || tip;
  const box = inner.getBoundingClientRect();
  const style = getComputedStyle(inner);
  return {text: inner.innerText.trim(), left: box.left, right: box.right, height: box.height,
          color: style.color, background: style.backgroundColor,
          opacity: getComputedStyle(tip).opacity,
          scheme: document.body.getAttribute('data-md-color-scheme')};
}"""


# The one-page edition as the browser has it: its sections, the targets of its contents, and
# every in-page link whose target is missing.
BOOK_JS = r"""() => {
  const ids = new Set(Array.from(document.querySelectorAll('[id]')).map(e => e.id));
  const sections = Array.from(document.querySelectorAll('article section.onepage-page'));
  const toc = Array.from(document.querySelectorAll('article nav.onepage-toc a'))
    .map(a => decodeURIComponent(a.getAttribute('href').slice(1)));
  const top = Array.from(document.querySelectorAll('article nav.onepage-toc > ol > li > a'))
    .map(a => a.getAttribute('href').slice(1));
  const broken = Array.from(document.querySelectorAll('article a[href^="#"]'))
    .map(a => decodeURIComponent(a.getAttribute('href').slice(1)))
    .filter(id => id && !ids.has(id));
  return {sections: sections.map(s => s.id),
          titled: sections.filter(s => s.querySelector('h1')).length, toc: toc.length,
          top: top, missing: toc.filter(id => !ids.has(id)), broken: broken};
}"""

# Each listing title that links to a Source page: its link and its block's first line.
LISTINGS_JS = r"""() => Array.from(
  document.querySelectorAll('article .highlight .filename a[href*="source/"]')).map(a => [
    a.getAttribute('href'), a.textContent.trim(),
    a.closest('.highlight').querySelector('code').textContent.split('\n')[0]])"""

# The line a Source page's address points at: whether it exists, where it stands, its text and
# the text of the lines after it (a region may open with a nested region's marker).
TARGET_JS = r"""() => {
  const id = decodeURIComponent(location.hash.slice(1));
  const line = document.getElementById(id);
  if (!line) return null;
  const header = document.querySelector('.md-header').getBoundingClientRect().bottom;
  const box = line.getBoundingClientRect();
  const lines = [];
  for (let e = line; e && lines.length < 4; e = e.nextElementSibling) lines.push(e.textContent);
  return {id: id, top: box.top, bottom: box.bottom, header: header, height: innerHeight,
          lines: lines};
}"""
