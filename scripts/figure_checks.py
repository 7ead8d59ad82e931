"""Every figure readable: its text at WCAG AA contrast, and large enough on a phone.

    python scripts/figure_checks.py [DIR]      (default: out/figures; exits 1 on a failure)

Size. A figure opened full size (mkdocs-glightbox, docs/stylesheets/generated.css) is shown at
its own size, or fitted to the width of a window narrower than that, never panned sideways; so
on a phone PHONE_PX wide its smallest text must still be MIN_TEXT_PX high. A figure's smallest
text and width are read from the SVG (Graphviz's font sizes, under its own scale; matplotlib's
glyphs, drawn at a hundredth of their size and scaled up) in its own units, points.
tests/browser/ measures the same on the opened figure in Chromium.

Contrast (4.5:1). A figure is shown as an <img> on the light page and on the dark one, so the
page's CSS cannot recolour it: a text that stands on nothing of the figure's own must read on
both page colours, white and the dark palette's background (read from mkdocs-material's own
stylesheet). A text drawn on a filled shape (a graph node, a table cell, an edge label's or a
plot's card) is measured against that fill only: the last opaque shape drawn before the text
whose box holds the text's anchor. Both kinds of SVG the book makes are read: Graphviz's <text>
elements and matplotlib's text drawn as glyph paths (a group per text, its fill in a style).
"""

import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
AA = 4.5  # WCAG 2 AA, normal-size text
SVG = "{http://www.w3.org/2000/svg}"
NAMED = {"white": "#ffffff", "black": "#000000"}
NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:e-?\d+)?")
TRANSLATE = re.compile(r"translate\(([-\d.e]+)[ ,]+([-\d.e]+)\)")
SLATE_BG = re.compile(
    r"--md-default-bg-color:hsla\(var\(--md-hue\),\s*([\d.]+)%,\s*([\d.]+)%,\s*1\)"
)
HUE = re.compile(r"--md-hue:([\d.]+)deg")


PHONE_PX = 390  # the narrow width the site is checked at (tests/browser/)
MIN_TEXT_PX = 11  # the smallest text an opened figure may show there
PX_PER_PT = 4 / 3  # an SVG's width in pt is shown at 96 px per inch
FONT_SIZE = re.compile(r'font-size[=:]\s*"?([\d.]+)')
GLYPH_SCALE = re.compile(r"scale\(([\d.]+) -\1\)")
GRAPH_SCALE = re.compile(r'class="graph" transform="scale\(([\d.]+)')  # Graphviz's own scale
VIEW_WIDTH = re.compile(r'viewBox="[-\d.]+ [-\d.]+ ([\d.]+) [\d.]+"')


def smallest_text(svg: str) -> tuple[float, float]:
    """A figure's smallest text and its width, both in the figure's own units (0 when it has
    no text or no viewBox)."""
    scale = float(GRAPH_SCALE.search(svg).group(1)) if GRAPH_SCALE.search(svg) else 1.0
    sizes = [scale * float(size) for size in FONT_SIZE.findall(svg)]
    sizes += [100 * float(size) for size in GLYPH_SCALE.findall(svg)]
    view = VIEW_WIDTH.search(svg)
    return min(sizes, default=0.0), float(view.group(1)) if view else 0.0


def text_px(svg: str, window: float = PHONE_PX) -> float | None:
    """The smallest text in px, the figure at its own size or fitted to the window's width."""
    size, width = smallest_text(svg)
    if not size or not width:
        return None
    return size * min(PX_PER_PT, window / width)


def luminance(colour: str) -> float:
    """WCAG relative luminance of #rrggbb."""
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(first: str, second: str) -> float:
    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def hsl_hex(hue: float, saturation: float, lightness: float) -> str:
    import colorsys

    red, green, blue = colorsys.hls_to_rgb(hue / 360, lightness / 100, saturation / 100)
    return "#" + "".join(f"{round(c * 255):02x}" for c in (red, green, blue))


def page_backgrounds() -> dict[str, str]:
    """{palette: background}: white, and the slate palette's, from the installed material."""
    import material

    sheets = Path(material.__file__).parent / "templates" / "assets" / "stylesheets"
    palette = "".join(p.read_text(encoding="utf-8") for p in sheets.glob("palette.*.min.css"))
    main = "".join(p.read_text(encoding="utf-8") for p in sheets.glob("main.*.min.css"))
    found, hue = SLATE_BG.search(palette), HUE.search(main)
    if not found or not hue:
        raise SystemExit("figure_checks: no slate background in material's stylesheets")
    return {"light": "#ffffff", "dark": hsl_hex(float(hue[1]), float(found[1]), float(found[2]))}


def fill_of(element) -> str | None:
    """The element's own fill as #rrggbb; None when it has none (or it is see-through)."""
    style = dict(
        part.split(":", 1) for part in (element.get("style") or "").split(";") if ":" in part
    )
    style = {key.strip(): value.strip() for key, value in style.items()}
    value = element.get("fill") or style.get("fill")
    opacity = element.get("fill-opacity") or style.get("fill-opacity") or "1"
    if value is None or value in ("none", "transparent") or float(opacity) == 0:
        return None
    value = NAMED.get(value, value).lower()
    if len(value) == 4:
        value = "#" + "".join(c * 2 for c in value[1:])
    if not re.fullmatch(r"#[0-9a-f]{6}", value):
        raise ValueError(f"a fill this check cannot read: {value!r}")
    return value


def box_of(element) -> tuple[float, float, float, float] | None:
    """(left, top, right, bottom) of a shape, from its own coordinates."""
    tag = element.tag.removeprefix(SVG)
    get = lambda name: float(element.get(name, 0))  # noqa: E731
    if tag == "rect":
        return get("x"), get("y"), get("x") + get("width"), get("y") + get("height")
    if tag == "ellipse":
        x, y, rx, ry = get("cx"), get("cy"), get("rx"), get("ry")
        return x - rx, y - ry, x + rx, y + ry
    numbers = [float(n) for n in NUMBER.findall(element.get("points") or element.get("d") or "")]
    if len(numbers) < 4:
        return None
    xs, ys = numbers[0::2], numbers[1::2]
    return min(xs), min(ys), max(xs), max(ys)


def clip_boxes(root) -> dict[str, tuple]:
    """{id: box} of each clipPath made of one rect (matplotlib clips a plot's bars to its axes:
    a bar on a logarithmic axis starts far outside the picture)."""
    found = {}
    for clip in root.iter(f"{SVG}clipPath"):
        rects = list(clip.iter(f"{SVG}rect"))
        if len(rects) == 1:
            found[clip.get("id")] = box_of(rects[0])
    return found


def clipped(box, clip):
    if clip is None:
        return box
    return max(box[0], clip[0]), max(box[1], clip[1]), min(box[2], clip[2]), min(box[3], clip[3])


def texts_and_shapes(root):
    """In drawing order: ("shape", box, fill) and ("text", (x, y), fill, words)."""
    clips = clip_boxes(root)

    def walk(element):
        if not isinstance(element.tag, str):  # a comment
            return
        tag = element.tag.removeprefix(SVG)
        if tag in ("defs", "clipPath", "title", "desc", "metadata", "style"):
            return
        if tag == "text":
            size = float(element.get("font-size", 0))
            point = float(element.get("x", 0)), float(element.get("y", 0)) - size / 3
            yield "text", point, fill_of(element) or "#000000", element.text or ""
            return
        if tag == "g" and (element.get("id") or "").startswith("text_"):
            yield from glyphs(element)
            return
        if tag in ("path", "polygon", "rect", "ellipse") and fill_of(element):
            box = box_of(element)
            clip = re.fullmatch(r"url\(#(.+)\)", element.get("clip-path") or "")
            if box:
                yield "shape", clipped(box, clips.get(clip[1]) if clip else None), fill_of(element)
        for child in element:
            yield from walk(child)

    def glyphs(group):
        """A matplotlib text: its comment holds the words, a group inside it the fill."""
        words = next((c.text for c in group.iter(ET.Comment)), "") or group.get("id")
        for inner in group.iter(f"{SVG}g"):
            moved = TRANSLATE.search(inner.get("transform") or "")
            if moved and fill_of(inner):
                yield "text", (float(moved[1]), float(moved[2])), fill_of(inner), words.strip()
                return

    yield from walk(root)


def problems(svg: str, backgrounds: dict[str, str]) -> list[str]:
    """Each text below AA against what is behind it: 'words: fill on background is N:1'."""
    root = ET.fromstring(svg, parser=ET.XMLParser(target=ET.TreeBuilder(insert_comments=True)))
    shapes, found = [], []
    for kind, where, fill, *words in texts_and_shapes(root):
        if kind == "shape":
            shapes.append((where, fill))
            continue
        x, y = where
        behind = next((f for (l, t, r, b), f in reversed(shapes) if l <= x <= r and t <= y <= b),
                      None)  # fmt: skip
        for palette, colour in ({"figure": behind} if behind else backgrounds).items():
            ratio = contrast(fill, colour)
            if ratio < AA:
                found.append(f"{words[0]!r}: {fill} on {colour} ({palette}) is {ratio:.2f}:1")
    return found


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    folder = Path(argv[0]) if argv else ROOT / "out" / "figures"
    backgrounds = page_backgrounds()
    failed = 0
    for path in sorted(folder.glob("*.svg")):
        svg = path.read_text(encoding="utf-8")
        found, px = problems(svg, backgrounds), text_px(svg)
        if px is not None and px < MIN_TEXT_PX:
            found.append(f"smallest text {px:.1f} px at {PHONE_PX} px wide")
        failed += bool(found)
        shown = f"smallest text {px:.1f} px at {PHONE_PX} px" if px else "no text"
        print(f"{path.name}: " + ("; ".join(found[:3]) if found else f"AA; {shown}"))
    print(f"{failed} figure(s) to fix" if failed else "every figure at AA and readable on a phone")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
