"""How the HTML report scales: its size, the time to write it, the time to open it in Chromium.

    python benchmarks/bench_html.py REF.tpl HYP.tpl [--out DIR] [--chromium PATH] [--repeat N]

e.g. on the set of ``python benchmarks/gen_templates.py OUTDIR --docs 10000
--instances 100000 --seed 1``. It runs, each as a real process,
``python -m hub4eval score REF HYP -q`` with and without ``--html`` (the
difference is the time to make and write the report: the groups of documents
make their points' columns in parallel, the main process joins them; wall
and CPU time, the latter
steadier on a shared machine; ``--repeat N`` runs N pairs), then opens the report in
headless Chromium through Playwright (``pip install playwright``; Chromium
from the system, e.g. Debian's ``chromium``) and measures, from navigation:
the per-slot table visible, the data read (the per-document table rendered),
then opening the drill-down of the slot with the most points until its first
rows show, the next page, and a category filter. Issue #18's targets: under
25 MB, written in a few seconds, open in under 5 s, the drill-down usable.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip


def run_score(ref: Path, hyp: Path, html: Path | None) -> tuple[float, float]:
    """(wall seconds, CPU seconds: user + system) of one ``score`` process."""
    command = [sys.executable, "-m", "hub4eval", "score", str(ref), str(hyp), "-q"]
    if html is not None:
        command += ["--html", str(html)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


WRITE = """
import gc, json, sys, time
from hub4eval import api
from hub4eval.report.html import to_html
gc.disable()  # as the CLI does
result = api.score_files(sys.argv[1], sys.argv[2])
cpu, wall = time.process_time(), time.perf_counter()
to_html(result)
print(json.dumps([time.perf_counter() - wall, time.process_time() - cpu]))
"""


JOIN = """
import gc, json, sys, time
from hub4eval import api
from hub4eval.report.html import to_html, write_point_columns
gc.disable()  # as the CLI does
result = api.score_files(
    sys.argv[1],
    sys.argv[2],
    output=api.OutputOptions(keep="counts", jobs=None, column_writer=write_point_columns),
)
if result.tally is None:  # scored whole (files under 4 MB in one process): no columns to join
    print("null")
    sys.exit()
cpu, wall = time.process_time(), time.perf_counter()
to_html(result)
print(json.dumps([time.perf_counter() - wall, time.process_time() - cpu]))
result.tally.discard_point_files()
"""


def write_in_process(ref: Path, hyp: Path, script: str = WRITE) -> tuple[float, float] | None:
    """(wall, CPU seconds) of ``to_html`` on a result scored beforehand in the same process: the
    time to write the report, making the points and their reasons included (the points are made
    lazily, for the report or ``--json``). With ``JOIN``: the result was scored in groups of
    documents (as ``score`` does), each group made its points' columns, and ``to_html`` joins them;
    None when the files were scored whole (under 4 MB, one process: nothing to join)."""
    done = subprocess.run(
        [sys.executable, "-c", script, str(ref), str(hyp)], check=True, capture_output=True, text=True
    )
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    return None if figures is None else (figures[0], figures[1])


def open_in_browser(report: Path, chromium: str) -> dict[str, float | int | str]:
    from playwright.sync_api import sync_playwright

    figures: dict[str, float | int | str] = {}
    with sync_playwright() as pw, tempfile.TemporaryDirectory() as profile:
        context = pw.chromium.launch_persistent_context(
            profile, executable_path=chromium, args=CHROMIUM_ARGS, headless=True,
            viewport={"width": 1300, "height": 1000},
        )  # fmt: skip
        figures["chromium"] = context.browser.version if context.browser else "?"
        page = context.new_page()
        start = time.perf_counter()
        page.goto(report.as_uri(), wait_until="commit", timeout=120_000)
        page.wait_for_selector("#slots", state="visible", timeout=120_000)
        figures["slot table visible s"] = time.perf_counter() - start
        page.wait_for_selector("body[data-ready]", timeout=120_000)
        page.wait_for_selector("#documents tbody tr", timeout=120_000)
        figures["data read, all tables rendered s"] = time.perf_counter() - start
        assert page.get_attribute("body", "data-ready") == "1", page.text_content("#data-status")
        figures["page elements"] = page.evaluate("document.getElementsByTagName('*').length")
        # The slot with the most points.
        sizes = page.eval_on_selector_all(
            "#drilldown details",
            "ds => ds.map(d => [...d.querySelectorAll('summary span')]"
            ".reduce((n, s) => n + Number(s.textContent.split(' ')[1].replace(/,/g, '')), 0))",
        )
        biggest = max(range(len(sizes)), key=sizes.__getitem__)
        figures["biggest slot points"] = sizes[biggest]
        details = page.locator("#drilldown details").nth(biggest)
        start = time.perf_counter()
        details.locator("summary").click()
        details.locator("table.points > tbody > tr").first.wait_for()
        figures["open biggest drill-down s"] = time.perf_counter() - start
        figures["rows shown"] = details.locator("table.points > tbody > tr").count()
        following = details.get_by_role("button", name="Next")
        if following.count() and following.first.is_enabled():  # (a small slot has one page)
            start = time.perf_counter()
            first_document = details.locator("table.points > tbody > tr td").nth(2).text_content()
            following.first.click()
            page.wait_for_function(
                "([d, t]) => d.querySelector('table.points > tbody > tr td:nth-child(3)').textContent !== t",
                arg=[details.element_handle(), first_document],
            )
            figures["next page s"] = time.perf_counter() - start
        start = time.perf_counter()
        page.select_option("#filter-category", label="MIS")
        page.wait_for_function(
            "d => [...d.querySelectorAll('table.points > tbody > tr td:first-child')].every(c => c.textContent === 'MIS')",
            arg=details.element_handle(),
        )
        figures["category filter s"] = time.perf_counter() - start
        figures["page elements after"] = page.evaluate("document.getElementsByTagName('*').length")
        context.close()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("ref", type=Path)
    parser.add_argument("hyp", type=Path)
    parser.add_argument("--out", type=Path, default=None, help="directory for the report (default: a temporary one)")
    parser.add_argument(
        "--chromium", default=shutil.which("chromium") or "chromium", help="the browser (default: chromium on the PATH)"
    )
    parser.add_argument(
        "--repeat", type=int, default=1, help="pairs of runs, with and without --html in turn (medians shown)"
    )
    args = parser.parse_args()
    out_dir = args.out or Path(tempfile.mkdtemp(prefix="bench_html_"))
    out_dir.mkdir(parents=True, exist_ok=True)
    report = out_dir / "report.html"
    runs: dict[str, list[tuple[float, float]]] = {"without": [], "with": [], "write": [], "join": []}
    for _ in range(args.repeat):  # interleaved, so that a change in the machine's load hits all
        runs["without"].append(run_score(args.ref, args.hyp, None))
        runs["with"].append(run_score(args.ref, args.hyp, report))
        for key, script in (("write", WRITE), ("join", JOIN)):
            figures = write_in_process(args.ref, args.hyp, script)
            if figures is not None:
                runs[key].append(figures)
    print(f"# {time.strftime('%Y-%m-%d')}, {os.cpu_count()} CPUs, Python {sys.version.split()[0]}, load {_load()}")
    for n, what in ((0, "wall"), (1, "CPU")):
        without = statistics.median(run[n] for run in runs["without"])
        with_html = statistics.median(run[n] for run in runs["with"])
        extra = [w[n] - o[n] for w, o in zip(runs["with"], runs["without"], strict=True)]
        print(
            f"{what}: score without --html: {without:.1f} s; with --html: {with_html:.1f} s; writing the report: "
            f"{with_html - without:.1f} s (each pair: {', '.join(f'{e:.1f}' for e in extra)})"
        )
    if runs["join"]:
        print(
            "(both scored in groups of documents, every core: with --html each group also makes its points' "
            "columns, in parallel, and the main process joins them and writes the report)"
        )
    else:
        print("(both scored whole, in one process: files under 4 MB)")
    for key, what in (
        ("join", "joining the groups' columns and writing the report, in the main process"),
        ("write", "writing the report from a result scored whole, in one process"),
    ):
        write = runs[key]
        if not write:
            print(f"{what}: not measured (files under 4 MB are scored whole, in one process)")
            continue
        print(
            f"{what}: wall {min(w for w, _ in write):.1f} s, CPU {min(c for _, c in write):.1f} s "
            f"(best of {len(write)})"
        )
    print(f"report size: {report.stat().st_size / 1e6:.1f} MB ({report})")
    if not (Path(args.chromium).exists() and _has_playwright()):
        print("browser figures skipped: no chromium or no playwright")
        return
    for name, value in open_in_browser(report, args.chromium).items():
        print(f"{name}: {value:.2f}" if isinstance(value, float) else f"{name}: {value}")


def _load() -> str:
    return " ".join(f"{v:.1f}" for v in os.getloadavg())


def _has_playwright() -> bool:
    try:
        import playwright  # noqa: F401
    except ImportError:
        return False
    return True


if __name__ == "__main__":
    main()
