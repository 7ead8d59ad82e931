"""The Source pages' hook (docs/hooks/source.py): where each public name is defined, for the API
reference's links to its line, and the modules in the README's reading order."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SPEC = importlib.util.spec_from_file_location("source_hook", ROOT / "docs/hooks/source.py")
source = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(source)

MODULE = '''"""A module."""
LIMIT = 3
count: int = 0


class Box:
    size = 1

    def __init__(self, item):
        self.item = item

    def open(self):
        return self.item


def helper():
    pass
'''


def test_every_kind_of_definition_has_its_line(tmp_path):
    path = tmp_path / "box.py"
    path.write_text(MODULE)
    lines = source.definition_lines(path, "uopc.box")
    assert lines == {
        "uopc.box.LIMIT": 2,
        "uopc.box.count": 3,
        "uopc.box.Box": 6,
        "uopc.box.Box.size": 7,
        "uopc.box.Box.__init__": 9,
        "uopc.box.Box.item": 10,
        "uopc.box.Box.open": 12,
        "uopc.box.helper": 16,
    }


def test_api_headings_link_to_the_line_a_re_export_comes_from(tmp_path):
    (tmp_path / "uopc").mkdir()
    (tmp_path / "uopc" / "box.py").write_text(MODULE)
    (tmp_path / "uopc" / "__init__.py").write_text("from uopc.box import Box\n")
    heading = '<h3 id="{}" class="doc doc-heading">{}</h3>'.format
    page = heading("uopc.Box", "Box") + heading("uopc.box.Box.open", "open") + heading("x", "x")
    linked = source.link_api_names(page, tmp_path)
    assert 'href="uopc/box.py.html#L6"' in linked and 'href="uopc/box.py.html#L12"' in linked
    assert linked.count("api-source") == 2  # "x" names nothing in uopc


def test_the_modules_come_in_the_readme_s_order():
    order = source.module_order(ROOT)
    assert order[:3] == ["ops", "dtypes", "semantics"] and order[-1] == "builder"
    assert len(order) == len(set(order)) >= 15
