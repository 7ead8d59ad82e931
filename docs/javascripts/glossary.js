// A glossary term (docs/hooks/glossary.py) is a link to its entry in appendix F whose title is
// the definition. With a mouse or the keyboard Material shows the title on hover or focus and a
// click follows the link. A touch screen has no hover: there the first tap on a term only
// focuses it, which shows the definition, and a second tap on the same term opens the entry.
document.addEventListener("click", (event) => {
  const term = event.target.closest ? event.target.closest("a.glossary-term") : null;
  if (!term || !window.matchMedia("(hover: none)").matches) return;
  if (term.dataset.shown === "yes") return;
  event.preventDefault();
  term.dataset.shown = "yes";
  term.focus();
});
document.addEventListener("focusout", (event) => {
  const term = event.target.closest ? event.target.closest("a.glossary-term") : null;
  if (term) delete term.dataset.shown;
});
