"""The HTML report in a real browser: headless Chromium driven by Playwright.

Needs the ``playwright`` Python package (the ``test`` extra) and a Chromium
executable: Debian's ``chromium`` (``apt-get install chromium``; ``.ci/run``
installs it) or ``chromium-headless-shell``, or the path in the environment
variable ``HUB4EVAL_CHROMIUM``. Playwright's own browser download is not used.
Without them the tests are skipped, and the skip reason says what is missing.
"""

from __future__ import annotations

import os
import shutil

import pytest

from hub4eval.api import score_files
from hub4eval.report.explain import explain
from hub4eval.report.html import PAGE_SIZE, read_embedded, to_html
from hub4eval.report.tables import percent
from tests.support import EXAMPLES

ASR = EXAMPLES / "asr"
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip


def _chromium() -> str | None:
    named = os.environ.get("HUB4EVAL_CHROMIUM")
    if named:
        return named if os.path.exists(named) else None
    for name in ("chromium", "chromium-headless-shell", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


CHROMIUM = _chromium()
sync_api = pytest.importorskip(
    "playwright.sync_api", reason="the playwright package is not installed (pip install -e '.[test]')"
)
pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="no Chromium executable (apt-get install chromium, or set HUB4EVAL_CHROMIUM to its path)",
)


@pytest.fixture(scope="module")
def asr():
    return score_files(
        ASR / "ref.tpl", ASR / "hyp.tpl", ref_text=ASR / "reference.sgml", hyp_text=ASR / "asr_unsegmented.sgml"
    )


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    with sync_api.sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("profile")), executable_path=CHROMIUM, args=ARGS, headless=True
        )
        yield context
        context.close()


def open_report(browser, path):
    """Open the file, fail on any script error or console error, wait until the data is read."""
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on(
        "request", lambda request: errors.append(f"request {request.url}") if request.url != path.as_uri() else None
    )
    page.goto(path.as_uri())
    page.wait_for_selector("body[data-ready]")
    assert page.get_attribute("body", "data-ready") == "1", page.text_content("#data-status")
    return page, errors


def cell_texts(locator) -> list[list[str]]:
    return locator.evaluate_all("rows => rows.map(r => [...r.children].map(c => c.innerText))")


@pytest.mark.parametrize("compress", [False, True])
def test_tables_and_a_slot_drilldown_as_a_person_sees_them(browser, asr, tmp_path, compress):
    path = tmp_path / "asr.html"
    path.write_text(to_html(asr, compress=compress), encoding="utf-8")
    page, errors = open_report(browser, path)
    # The tables are there.
    assert page.locator("#slots").is_visible()
    slot_rows = [row[0] for row in cell_texts(page.locator("#slots tr:has(td)"))]
    assert slot_rows[-1] == "ALL" and "SPORTS_EVENT.WINNER" in slot_rows
    documents = cell_texts(page.locator("#documents tbody tr"))
    assert [row[0] for row in documents] == list(asr.by("document"))
    assert documents[0][-5] == percent(asr.by("document")[documents[0][0]].metrics()["F"])  # F column
    mapping = cell_texts(page.locator("#mapping tbody tr"))
    assert [(r or "-", h or "-") for r, h, _ in asr.instance_pairs()] == [(row[0], row[1]) for row in mapping]
    # A closed slot shows no rows; clicking it renders them.
    slot = "SPORTS_EVENT.WINNER"
    section = page.locator("#drilldown details", has=page.locator(f"summary b:text-is('{slot}')"))
    assert not section.locator("table.points").is_visible()
    section.locator("summary").click()
    rows = section.locator("table.points > tbody > tr")
    rows.first.wait_for()
    shown = cell_texts(rows)
    expected = explain(asr, slots=[slot])
    assert len(shown) == len(expected)
    for cells, row in zip(shown, expected, strict=True):
        category, kind, document, reference, hypothesis, reason = cells
        assert (category, kind, document) == (row.category, row.point.kind, row.point.docid)
        assert reference == ("-" if row.ref_fill is None else f"{row.ref_fill}\n{row.ref_where}")
        assert hypothesis == ("-" if row.hyp_fill is None else f"{row.hyp_fill}\n{row.hyp_where}")
        assert reason.startswith(row.reason)
        if row.context is not None:  # the aligned words under the reason, the fills highlighted
            assert reason.split("\n")[1].split("\t")[0] == "REF"
    # The Hingis point: its aligned words show `hingis` (REF) over `hinges` (HYP), both highlighted
    # as the fills and as a substitution.
    hingis = section.locator("table.points > tbody > tr", has_text="martina hinges").first
    assert hingis.locator(".ctx tr").first.locator("td.on.sub").all_inner_texts() == ["hingis"]
    assert hingis.locator(".ctx tr").last.locator("td.on.sub").all_inner_texts() == ["hinges"]
    assert hingis.locator(".ctx td.on").all_inner_texts() == ["martina", "hingis", "martina", "hinges"]
    # The category filter applies to the open slots.
    page.select_option("#filter-category", label="SPU")
    categories = [cells[0] for cells in cell_texts(section.locator("table.points > tbody > tr"))]
    assert categories == ["SPU"] * sum(1 for row in expected if row.category == "SPU") and categories
    page.select_option("#filter-category", label="all")
    page.fill("#filter-document", "0600")  # part of one DOCID
    page.press("#filter-document", "Enter")
    documents_shown = {cells[2] for cells in cell_texts(section.locator("table.points > tbody > tr"))}
    assert documents_shown == {"ABC19980120.1830.0600"}
    assert page.text_content("#filter-status") == "1 document contains \u201c0600\u201d"
    assert errors == []


@pytest.mark.parametrize("compress", [None, True])
def test_pages_of_a_long_slot(browser, tmp_path, compress):
    """A slot with more points than a page: 250 documents of one event with one fill each (deflated:
    the hypothesis instances' column holds 16-bit numbers, viewed in place)."""
    count = 2 * PAGE_SIZE + 50
    ref, hyp = [], []
    for d in range(count):
        ref.append(f'<E-DOC{d:04d}-1> :=\n  NAME: "name {d}"\n')
        hyp.append(f'<E-DOC{d:04d}-2> :=\n  NAME: "{"name" if d % 2 else "other"} {d}"\n')  # keys after all 250
    (tmp_path / "ref.tpl").write_text("\n".join(ref))
    (tmp_path / "hyp.tpl").write_text("\n".join(hyp))
    result = score_files(tmp_path / "ref.tpl", tmp_path / "hyp.tpl")
    path = tmp_path / "long.html"
    path.write_text(to_html(result, compress=compress), encoding="utf-8")
    page, errors = open_report(browser, path)
    section = page.locator("#drilldown details").first
    section.locator("summary").click()
    body = section.locator("table.points > tbody > tr")
    body.first.wait_for()
    rows = explain(result)
    expected = [row.point.docid for row in rows]
    hypotheses = [cells[4] for cells in cell_texts(body)]
    assert hypotheses == [f"{row.hyp_fill}\n{row.hyp_where}" for row in rows[:PAGE_SIZE]]
    pages = [[cells[2] for cells in cell_texts(body)]]
    for _ in range(2):
        section.get_by_role("button", name="Next").click()
        pages.append([cells[2] for cells in cell_texts(body)])
    assert [len(p) for p in pages] == [PAGE_SIZE, PAGE_SIZE, count - 2 * PAGE_SIZE]
    assert sum(pages, []) == expected
    info = section.locator(".pager .status").text_content()
    assert info == f"rows 201\u2013{count} of {count} (page 3 of 3)"
    assert section.get_by_role("button", name="Next").is_disabled()
    section.get_by_role("button", name="First").click()
    assert [cells[2] for cells in cell_texts(body)] == expected[:PAGE_SIZE]
    # The per-document table pages too, and sorts worst F first by its heading.
    assert page.locator("#documents tbody tr").count() == PAGE_SIZE
    page.locator("#documents th:text-is('F')").click()
    first = cell_texts(page.locator("#documents tbody tr"))[0]
    f_of = {name: counts.metrics()["F"] for name, counts in result.by("document").items()}
    assert f_of[first[0]] == min(f for f in f_of.values() if f is not None) == 0.0  # the even documents
    page.locator("#documents th:text-is('DOCUMENT')").click()  # back to file order
    assert cell_texts(page.locator("#documents tbody tr"))[0][0] == "DOC0000"
    assert errors == []


@pytest.mark.parametrize("compress", [False, True])
def test_every_reason_of_a_clean_evaluation_reads_as_explain_says(browser, tmp_path, compress):
    """Without texts to align, reasons travel as templates and fields, and the page puts them together.
    Every slot of the clean example is opened and each row's reason compared with ``explain``'s,
    word for word (content, extent and pointer reasons, with one to three fields)."""
    result = score_files(EXAMPLES / "clean" / "ref.tpl", EXAMPLES / "clean" / "hyp.tpl")
    path = tmp_path / "clean.html"
    path.write_text(to_html(result, compress=compress), encoding="utf-8")
    page, errors = open_report(browser, path)
    sections = page.locator("#drilldown details")
    slots = list(result.by("slot"))
    assert sections.count() == len(slots)
    for k, slot in enumerate(slots):
        section = sections.nth(k)
        section.locator("summary").click()
        rows = section.locator("table.points > tbody > tr")
        rows.first.wait_for()
        shown = [cells[5] for cells in cell_texts(rows)]
        assert shown == [row.reason for row in explain(result, slots=[slot])][:PAGE_SIZE], slot
    data = read_embedded(path.read_text(encoding="utf-8"))
    assert sorted(set(data["reasonArity"])) == [0, 2, 3]  # MIS/SPU reasons have no fields
    assert errors == []
