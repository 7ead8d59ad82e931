"""mkdocs hook: the source as pages, and every listing's title a link to the lines it came from.

Why a hook: mkdocstrings (used for source/api.md) shows one object's source, without the file's
own line numbers; mkdocs-gen-files could write a page per file, but nothing maintained links a
listing's title to the region it was cut from, found again by its markers on every build.

Each module of uopc/, each program of code/short/ and every other file a page quotes gets a
generated page, source/<path>.html: the file whole, markers included, so that its line numbers
are the file's own, each line with the anchor `#L<number>`. The title of a fenced block that
only includes a listing becomes a link to the first line of its region there; an include whose
region the file no longer has stops the build. The source text goes in after every other hook
has seen the page (this hook is the last in mkdocs.yml), so the numbers hook never reads a
file's `{{`, and each marker line gets snippets' escape `;` so that snippets leaves it alone.
"""

import ast
import html
import re
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File
from mkdocs.utils import get_relative_url

from book.files import FENCE, INCLUDE_LINE, REGION_DIRS

SECTIONS = (  # (nav label, the folder, glob) of the files that always have a page
    ("uopc/", "uopc", "*.py"),
    ("code/short/", "code/short", "*.py"),
)
QUOTED_LABEL = "Quoted from tests and demos"
QUOTED_DIRS = REGION_DIRS  # the folders whose files the listings are cut from
LANGUAGES = {".py": "python", ".c": "c", ".h": "c", ".sh": "bash"}
PREFIX = "source/"
INDEX = "source/index.md"
API = "source/api.md"  # the API reference, a page of its own (mkdocstrings), when there is one
MARKER = re.compile(r"(?:#|//)\s*--8<-- \[(start|end):([a-z][-_0-9a-z]*)\]")
SNIPPET_MARK = re.compile(r"-+8<-+")  # where snippets would read its notation
TITLE = re.compile(r"""\btitle=(["'])(.*?)\1""")
FILENAME = re.compile(r'<span class="filename">(.*?)</span>', re.S)
LINE_SPAN = re.compile(r'<span id="__span-0-(\d+)">')
LINE_NUMBER = re.compile(r'<span class="linenos" data-linenos="(\s*)(\d+) "></span>')
NUMBER_LINK = r'<a class="linenos" data-linenos="\1\2 " href="#L\2"></a>'  # the number: a link
STATE: dict = {}
# Search finds a name where it is defined, on its file's page, but ranks the chapters first.
SEARCH_BOOST = 0.2
API_MODULES = "<!-- api modules: docs/hooks/source.py writes a section per module here -->"
STUB = f"---\nsearch:\n  boost: {SEARCH_BOOST}\n---\n\n# Source\n"


def _root(config) -> Path:
    return Path(config.config_file_path).resolve().parent


def page_uri(source: str) -> str:
    """uopc/uop.py -> source/uopc/uop.py.md (its page: source/uopc/uop.py.html)."""
    return f"{PREFIX}{source}.md"


def regions(path: Path) -> dict[str, tuple[int, int]]:
    """{name: (first, last)}: the lines (1-based) between the markers of each region of a file.
    make_excerpts.py --check refuses malformed markers; here a region is only looked up."""
    opened, found = {}, {}
    lines = path.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines, 1):
        match = MARKER.fullmatch(line.strip())
        if match and match.group(1) == "start":
            opened[match.group(2)] = number
        elif match and match.group(2) in opened:
            first = opened.pop(match.group(2)) + 1
            while first < number - 1 and not lines[first - 1].strip():
                first += 1  # the excerpt drops the blank lines a formatter left after a marker
            found[match.group(2)] = (first, number - 1)
    return found


def listing_target(root: Path, target: str) -> tuple[str, str | None] | None:
    """(source file, region or None for the whole file) of an include, or None when the include
    is not a listing (an output of out/, or a file without a page). The docs lint refuses a
    region included as `path:name`: a region is quoted by its excerpt."""
    if target.startswith("excerpts/"):
        excerpt = Path(target).relative_to("excerpts")
        source = excerpt.parent.with_suffix(excerpt.suffix).as_posix()
        return (source, excerpt.stem) if (root / source).is_file() else None
    whole = Path(target).suffix in LANGUAGES and target.split("/")[0] in QUOTED_DIRS
    return (target, None) if whole and (root / target).is_file() else None


def quotations(root: Path, pages) -> dict[str, dict[str, str]]:
    """{source file: {page that includes a listing of it: the page's title}}, pages in order."""
    found: dict[str, dict[str, str]] = {}
    for page in pages:
        if page.src_uri.startswith(PREFIX) or not page.abs_src_path:
            continue
        text = Path(page.abs_src_path).read_text(encoding="utf-8")
        title = next((line[2:].strip() for line in text.splitlines() if line.startswith("# ")),
                     page.src_uri)  # fmt: skip
        for line in text.splitlines():
            match = INCLUDE_LINE.fullmatch(line)
            listing = match and listing_target(root, match.group(2))
            if listing:
                found.setdefault(listing[0], {})[page.src_uri] = title
    return found


def first_docstring_line(path: Path) -> str:
    if path.suffix != ".py":
        return ""
    try:
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    except SyntaxError:
        return ""
    return doc.strip().split("\n")[0]


def add_to_nav(config, groups: list[tuple[str, list[str]]]) -> None:
    """The groups of source pages go at the end of the navigation's section that holds
    `source/index.md` (mkdocs.yml lists it, and `book.md`, where they belong)."""
    entries = [{label: [{Path(s).name: page_uri(s)} for s in files]} for label, files in groups]

    def insert(items) -> bool:
        for item in items:
            children = next(iter(item.values())) if isinstance(item, dict) else None
            if not isinstance(children, list):
                continue
            if any(c == INDEX or (isinstance(c, dict) and INDEX in c.values()) for c in children):
                children.extend(entries)  # at the end of the section that holds the index
                return True
            if insert(children):
                return True
        return False

    if config.nav is not None and not insert(config.nav):
        raise PluginError(f"mkdocs.yml: no section of the nav lists {INDEX}")


def on_files(files, config):
    root = _root(config)
    groups, seen = [], set()
    for label, folder, pattern in SECTIONS:
        paths = sorted(
            p.relative_to(root).as_posix() for p in (root / folder).glob(pattern) if p.is_file()
        )
        if paths:
            groups.append((label, paths))
            seen.update(paths)
    quoted_by = quotations(root, files.documentation_pages())
    quoted = sorted(set(quoted_by) - seen)
    if quoted:
        groups.append((QUOTED_LABEL, quoted))
    api = files.get_file_from_path(API) is not None
    STATE.update(root=root, groups=groups, titles={}, pages=set(), api=api, quoted_by=quoted_by)
    if not groups:
        return files
    for uri in [INDEX] + [page_uri(s) for _, paths in groups for s in paths]:
        if files.get_file_from_path(uri) is not None:
            raise PluginError(f"docs/{uri} would hide the generated source page {uri}")
        files.append(File.generated(config, uri, content=STUB))
        STATE["pages"].add(uri)
    add_to_nav(config, groups)
    return files


# ---------------------------------------------------------------------------------------------
# The pages of the Source section
# ---------------------------------------------------------------------------------------------


def escape_snippets(line: str) -> str:
    """The line with snippets' escape before its notation: snippets takes the `;` out again and
    leaves the line as it is in the file (a marker line would otherwise be dropped)."""
    mark = SNIPPET_MARK.search(line)
    return line if mark is None else f"{line[: mark.start()]};{line[mark.start() :]}"


def fence_for(text: str) -> str:
    longest = max((len(run) for run in re.findall(r"`{3,}", text)), default=2)
    return "`" * max(3, longest + 1)


def source_markdown(root: Path, source: str) -> str:
    path = root / source
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    fence = fence_for(text)
    found = regions(path)
    names = ", ".join(  # raw links: mkdocs checks anchors before the lines get theirs
        f'<a href="#L{first}">`{name}`</a> ({first}–{last})'
        for name, (first, last) in sorted(found.items(), key=lambda item: item[1])
    )
    parts = [  # the front matter was read from the page's stub
        f"# {source}\n",
        f"The whole file as it is in the repository, {len(lines)} lines; each line has its own "
        "address (click its number). [All the files](" + "../" * source.count("/") + "index.md).",
        "",
    ]
    if names:
        parts += [
            f"Its regions, the listings the book cuts from it (first, last line): {names}.",
            "",
        ]
    up = "../" * (source.count("/") + 1)
    quoting = STATE.get("quoted_by", {}).get(source, {})
    if quoting:
        pages = ", ".join(f"[{title}]({up}{uri})" for uri, title in quoting.items())
        parts += [f"Quoted in: {pages}.", ""]
    body = "\n".join(escape_snippets(line) for line in lines)
    parts += [f'{fence}{LANGUAGES.get(path.suffix, "text")} linenums="1"', body, fence, ""]
    return "\n".join(parts)


def index_markdown(root: Path, groups) -> str:
    api = " The names a program imports from `uopc` are described in the [API reference](api.md)."
    parts = [
        "# Source",
        "",
        "Every module of `uopc`, every program of the short path, and every other file the book "
        "shows a listing from, each whole, as it is in the repository, with its line numbers. A "
        "listing's title in the book links to the lines it was cut from."
        + (api if STATE.get("api") else ""),
        "",
    ]
    for label, paths in groups:
        parts += [f"## {label}", "", "| file | lines | what it holds |", "|---|---|---|"]
        for source in paths:
            path = root / source
            count = len(path.read_text(encoding="utf-8").splitlines())
            what = html.escape(first_docstring_line(path)).replace("|", "&#124;")
            link = page_uri(source).removeprefix(PREFIX)
            parts.append(f"| [`{source}`]({link}) | {count} | {what} |")
        parts.append("")
    return "\n".join(parts)


# ---------------------------------------------------------------------------------------------
# Every page: the titles of its listings
# ---------------------------------------------------------------------------------------------


def titled_listings(markdown: str) -> list[tuple[str, str]]:
    """(title, include target) of each fenced block that has a title and holds only includes
    (several regions in one block: the title links to the first)."""
    found, lines = [], markdown.split("\n")
    for number, line in enumerate(lines):
        opened = FENCE.fullmatch(line)
        title = opened and TITLE.search(opened.group(3))
        if not title:
            continue
        targets = []
        for inside in lines[number + 1 :]:
            closing = FENCE.fullmatch(inside)
            if closing and closing.group(2).startswith(opened.group(2)):
                break  # a closing fence (an opening one has a title, and is no include)
            include = INCLUDE_LINE.fullmatch(inside)
            if include:
                targets.append(include.group(2))
            elif inside.strip():
                targets = []  # a block with lines of its own is not a listing
                break
        if targets:
            found.append((title.group(2), targets[0]))
    return found


def module_order(root: Path) -> list[str]:
    """The modules of uopc in the book's reading order: README.md's marked list (the one
    tests/test_imports.py holds the imports to)."""
    readme = (root / "README.md").read_text(encoding="utf-8")
    start, end = readme.find("<!-- module order -->"), readme.find("<!-- end module order -->")
    names = re.findall(r"`(?:uopc/)?(\w+)\.py`", readme[start:end]) if 0 <= start < end else []
    return [name for name in names if (root / "uopc" / f"{name}.py").is_file()]


def api_modules(root: Path) -> str:
    """A section per module for the API reference: its Source page, the chapters and
    appendices that quote it, and its public names (mkdocstrings)."""
    parts = []
    for name in module_order(root):
        source = f"uopc/{name}.py"
        quoting = STATE.get("quoted_by", {}).get(source, {})
        where = ", ".join(
            f"[{t}](../{u})" for u, t in quoting.items() if not u.startswith("short/")
        )
        parts += [f"## `{source}`", "", f"[The whole file]({source}.md)" + (
            f"; quoted in {where}." if where else "."), "", f"::: uopc.{name}", "    options:",
            "      show_root_heading: false", "      heading_level: 3", ""]  # fmt: skip
    return "\n".join(parts)


def definition_lines(path: Path, module: str) -> dict[str, int]:
    """{"uopc.rewrite.UPat.match": line}: where each top-level name and each class member of a
    module is defined (mkdocstrings gives each of them a heading with that id)."""
    found = {}
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        found.update({f"{module}.{name}": line for name, line in defined(node)})
        for member in node.body if isinstance(node, ast.ClassDef) else []:
            for name, line in [*defined(member), *instance_fields(member)]:
                found.setdefault(f"{module}.{node.name}.{name}", line)
    return found


def instance_fields(method: ast.stmt) -> list[tuple[str, int]]:
    """The fields a method sets on `self` (self.op = ...), with their lines."""
    if not isinstance(method, ast.FunctionDef):
        return []
    return [
        (target.attr, node.lineno)
        for node in ast.walk(method)
        if isinstance(node, ast.Assign | ast.AnnAssign)
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
        and target.value.id == "self"
    ]  # fmt: skip


def defined(node: ast.stmt) -> list[tuple[str, int]]:
    """The names a statement defines, with its line: a def, a class, an assignment."""
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return [(node.name, node.lineno)]
    targets = node.targets if isinstance(node, ast.Assign) else []
    targets = [node.target] if isinstance(node, ast.AnnAssign) else targets
    return [(t.id, node.lineno) for t in targets if isinstance(t, ast.Name)]


API_HEADING = re.compile(
    r'(<h[2-6] id="(uopc\.[\w.]+)" class="doc doc-heading">)(.*?)(</h[2-6]>)', re.S
)


def link_api_names(html_text: str, root: Path) -> str:
    """Each name's heading on the API page gets a link to its line on its file's Source page."""
    lines, modules = {}, {path.stem for path in (root / "uopc").glob("*.py")}
    for path in sorted((root / "uopc").glob("*.py")):
        module = "uopc" if path.stem == "__init__" else f"uopc.{path.stem}"
        for name, line in definition_lines(path, module).items():
            lines[name] = (path.relative_to(root).as_posix(), line)

    by_name = {}  # a name a module imports ("uopc.UOp", "uopc.uop.ParamArg"): where it is made
    for name, where in lines.items():
        by_name.setdefault(name.split(".", 2)[-1], where)

    def link(match: re.Match) -> str:
        name = match.group(2)
        parts = name.split(".")  # uopc.Ops.CONST (the package), uopc.uop.ParamArg (a module)
        rest = ".".join(parts[2:] if parts[1] in modules else parts[1:])
        found = lines.get(name) or by_name.get(rest)
        if found is None:
            return match.group(0)
        href = f"{found[0]}.html#L{found[1]}"
        title = f"its definition, {found[0]} line {found[1]}"
        mark = f'<a class="api-source" href="{href}" title="{title}">source</a>'
        return f"{match.group(1)}{match.group(3)} {mark}{match.group(4)}"

    return API_HEADING.sub(link, html_text)


def on_page_markdown(markdown, page, config, files):
    root, where = STATE["root"], page.file.src_uri
    if where == INDEX:
        return index_markdown(root, STATE["groups"])
    if where == API:
        markdown = markdown.replace(API_MODULES, api_modules(root))
    if where in STATE["pages"]:
        return source_markdown(root, where.removeprefix(PREFIX).removesuffix(".md"))
    links = {}
    for title, target in titled_listings(markdown):
        listing = listing_target(root, target)
        if listing is None:
            continue
        source, region = listing
        anchor = ""
        if region:
            found = regions(root / source)
            if region not in found:
                raise PluginError(
                    f"{where}: the listing {target!r} has no region {region!r} in {source} "
                    "(run scripts/make_excerpts.py)"
                )
            anchor = f"#L{found[region][0]}"
        url = get_relative_url(page_uri(source).removesuffix(".md") + ".html", page.url)
        links.setdefault(title, []).append(url + anchor)
    STATE["titles"][where] = links
    return markdown


def on_page_content(html_text, page, config, files):
    where = page.file.src_uri
    if where == API:
        return link_api_names(html_text, STATE["root"])
    if where in STATE["pages"] and where != INDEX:
        html_text = LINE_SPAN.sub(r'<span id="L\1">', html_text)
        return LINE_NUMBER.sub(NUMBER_LINK, html_text)
    links = STATE["titles"].get(where)
    if not links:
        return html_text
    waiting = {title: list(urls) for title, urls in links.items()}

    def link(match: re.Match) -> str:
        urls = waiting.get(html.unescape(match.group(1)))
        if not urls:
            return match.group(0)
        return f'<span class="filename"><a href="{urls.pop(0)}">{match.group(1)}</a></span>'

    return FILENAME.sub(link, html_text)
