"""mkdocs hook: generated numbers in the prose, and the generated figures in the site.

- `{{ n.KEY }}` in a page becomes the value of KEY in out/numbers.json (written by
  scripts/make_numbers.py from the saved outputs); `{{ n.KEY:SPEC }}` formats it with the
  Python format spec SPEC, e.g. `{{ n.checks_total:, }}` gives 2,130,560. This runs on the
  page's own markdown, before the includes are expanded, so included files are never touched.
- An unknown key, a spec that does not apply to the value, or any `{{ n.` left after the
  replacement (a typo such as a missing brace) stops the build with the page and the key, in
  every mode of mkdocs (it is an error, not a warning that --quiet could hide).
- Every file of out/figures/ is published as figures/NAME in the site, so a page links it by a
  relative path, `../figures/relu.svg` from a page under short/; mkdocs then checks the link.
"""

import json
import re
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

PLACEHOLDER = re.compile(r"\{\{\s*n\.([A-Za-z0-9_]+)\s*(?::([^}]*?))?\s*\}\}")
LEFTOVER = re.compile(r"\{\{\s*n\.")
STATE = {}


def _root(config) -> Path:
    return Path(config.config_file_path).resolve().parent


def on_config(config):
    path = _root(config) / "out" / "numbers.json"
    if not path.exists():
        raise PluginError(f"{path} is missing: run ./run_all.sh (or scripts/make_numbers.py)")
    numbers = json.loads(path.read_text(encoding="utf-8"))
    STATE["missing"] = numbers.pop("_missing", [])
    STATE["numbers"] = numbers
    return config


def _value(key: str, spec: str | None, where: str) -> str:
    numbers = STATE["numbers"]
    if key not in numbers:
        hint = ""
        if STATE["missing"]:
            hint = f" (outputs not made yet: {', '.join(STATE['missing'])})"
        raise PluginError(f"{where}: unknown number {{{{ n.{key} }}}} in out/numbers.json{hint}")
    value = numbers[key]
    try:
        return format(value, spec.strip() if spec else "")
    except (ValueError, TypeError) as error:
        raise PluginError(f"{where}: {{{{ n.{key}:{spec} }}}} on {value!r}: {error}") from None


def on_page_markdown(markdown, page, config, files):
    where = page.file.src_uri
    text = PLACEHOLDER.sub(lambda m: _value(m.group(1), m.group(2), where), markdown)
    leftover = LEFTOVER.search(text)
    if leftover:
        line = text.count("\n", 0, leftover.start()) + 1
        raise PluginError(f"{where}:{line}: a '{{{{ n.' placeholder that does not parse")
    return text


def on_files(files, config):
    folder = _root(config) / "out" / "figures"
    for path in sorted(folder.glob("*")) if folder.is_dir() else []:
        uri = f"figures/{path.name}"
        if files.get_file_from_path(uri) is not None:
            raise PluginError(f"docs/{uri} would hide the generated out/figures/{path.name}")
        files.append(File.generated(config, uri, abs_src_path=str(path)))
    return files
