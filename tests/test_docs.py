"""The docs stay honest at low cost: every relative link in README.md and docs/*.md
reaches a file (and a heading, for `#anchor`), every project path they name in code
exists, every guide is reachable from the README, and every command and option that
`main.py --help` lists is in docs/command-line.md (and the command in the README's
command list)."""

import re
from pathlib import Path

import pytest

import main

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
COMMAND_LINE = ROOT / "docs" / "command-line.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]
# Linked before it is written (the lead writes it after merging issue 21's branches):
# once it exists, delete it here, and its links are checked like every other.
PENDING: set[Path] = set()  # a page linked to before it is written

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")


def prose(text: str) -> str:
    """A Markdown text without its fenced code blocks and inline code (which may run on
    to the next line): what is left holds the links."""
    lines, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            lines.append(line)
    return re.sub(r"`[^`]*`", "", "\n".join(lines))


def anchors(path: Path) -> set[str]:
    """The `#anchor`s GitHub gives the headings of `path`: lower case, punctuation
    dropped, spaces as hyphens, a repeated heading numbered -1, -2, ..."""
    seen: dict[str, int] = {}
    out = set()
    fenced = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            fenced = not fenced
        match = None if fenced else HEADING.match(line)
        if match:
            slug = re.sub(r"[^\w\- ]", "", match.group(2).strip().lower()).replace(" ", "-")
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            out.add(slug if n == 0 else f"{slug}-{n}")
    return out


def relative_links(path: Path) -> list[str]:
    return [target for target in LINK.findall(prose(path.read_text(encoding="utf-8")))
            if not re.match(r"[a-z][a-z0-9+.-]*:", target)]  # not https:, mailto:


def test_anchors_follow_github():
    page = ROOT / "docs" / "graph-debugger.md"
    assert {"the-engine-box", "keys", "how-the-graph-is-laid-out"} <= anchors(page)
    assert "grad" in anchors(COMMAND_LINE) and "check-engine" in anchors(COMMAND_LINE)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_reaches_a_file(page):
    links = relative_links(page)
    assert links, f"{page.name} links to nothing (not even back to the README)"
    for target in links:
        file, _, anchor = target.partition("#")
        where = (page.parent / file).resolve() if file else page
        if where in PENDING and not where.exists():
            continue
        assert where.is_file(), f"{page.name}: {target} is not a file"
        if anchor and where.suffix == ".md":
            assert anchor in anchors(where), f"{page.name}: {target} has no such heading"


FOLDERS = ("engine", "gui", "cli", "assets", "benchmarks", "tests", "docs", ".ci")
REPO_PATH = re.compile(rf"`((?:{'|'.join(re.escape(f) for f in FOLDERS)})/[^`\s]*)`")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_path_named_in_code_exists(page):
    """`gui/graph/layout/`, `benchmarks/build_gaps.py`: a folder moved or a file renamed
    shows here, not in a newcomer's shell."""
    for path in REPO_PATH.findall(page.read_text(encoding="utf-8")):
        assert list(ROOT.glob(path.rstrip("/"))), f"{page.name}: `{path}` does not exist"


def test_pending_pages_are_still_pending():
    for page in PENDING:
        assert not page.exists(), f"{page.name} exists now: remove it from PENDING"


def test_every_guide_is_reachable_from_the_readme():
    reached, todo = {README}, [README]
    while todo:
        page = todo.pop()
        for target in relative_links(page):
            where = (page.parent / target.partition("#")[0]).resolve()
            if where.suffix == ".md" and where.is_file() and where not in reached:
                reached.add(where)
                todo.append(where)
    assert set(PAGES) - reached == set()


def help_text(argv: list[str], monkeypatch, capsys) -> str:
    """What `main.py ARGV --help` prints, on one line (wide, so nothing is hyphenated)."""
    monkeypatch.setenv("COLUMNS", "1000")
    monkeypatch.setattr("sys.argv", ["main.py"])  # help names the command as it was run
    with pytest.raises(SystemExit) as exit_:
        main.main([*argv, "--help"])
    assert exit_.value.code == 0
    return " ".join(capsys.readouterr().out.split())


def listed_commands(monkeypatch, capsys) -> list[str]:
    text = help_text([], monkeypatch, capsys)
    found = re.search(r"Commands: (.+?) \(main\.py COMMAND --help\)", text)
    assert found, text
    commands = [c.strip() for c in found.group(1).split(",")]
    assert all(re.fullmatch(r"[a-z][a-z-]*", c) for c in commands), commands
    return commands


def command_list(path: Path, heading: str) -> str:
    """The section of `path` under `## heading`, up to the next heading of that level."""
    text = path.read_text(encoding="utf-8")
    found = re.search(rf"^## {re.escape(heading)}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert found, f"{path.name} has no section '{heading}'"
    return found.group(1)


def test_every_command_is_documented(monkeypatch, capsys):
    commands = listed_commands(monkeypatch, capsys)
    guide = COMMAND_LINE.read_text(encoding="utf-8")
    readme_list = command_list(README, "The command line")
    for command in commands:
        usage = re.compile(rf"main\.py {re.escape(command)}(?![\w-])")
        assert usage.search(guide), f"docs/command-line.md has no usage of {command}"
        assert command in anchors(COMMAND_LINE), f"docs/command-line.md: no '## {command}'"
        assert usage.search(readme_list), f"the README's command list misses {command}"


def test_every_option_is_documented(monkeypatch, capsys):
    guide = COMMAND_LINE.read_text(encoding="utf-8")
    checked = 0
    for command in listed_commands(monkeypatch, capsys):
        text = help_text([command], monkeypatch, capsys)
        options = set(re.findall(r"--[a-z][a-z-]*", text)) - {"--help"}
        checked += len(options)
        for option in sorted(options):
            assert re.search(rf"{re.escape(option)}(?![\w-])", guide), \
                f"docs/command-line.md does not mention {command} {option}"
    assert checked, "no command's --help listed an option"
