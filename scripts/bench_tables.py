"""`make bench`: run the benchmarks in bench/ and write what each printed into docs/performance.md.

Each bench owns one block of docs/performance.md, between `<!-- bench:NAME -->` and
`<!-- /bench -->` (NAME is bench/NAME.py). The benches run one after another (all of
bench/[!_]*.py, or the names given), their output echoed as it comes; each block is then replaced
by a line saying when and on what it was measured, and the output as printed. A bench that fails,
or says it was skipped (its last line ends in "skipped", as bench/load.py does without PostgreSQL
and Redis), leaves its block alone: the figures there stay those of the last run that measured
them. The database is named by its kind only, never by its URL (which may hold a password).

    .venv/bin/python scripts/bench_tables.py [NAME ...]
"""

from __future__ import annotations

import os
import platform
import re
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "performance.md"


def block_pattern(name: str) -> re.Pattern[str]:
    return re.compile(rf"(<!-- bench:{re.escape(name)} -->\n).*?(<!-- /bench -->)", re.DOTALL)


def machine() -> str:
    """The cores, the processor and the services the environment names, in a few words."""
    model = ""
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        found = re.search(r"^model name\s*:\s*(.+)$", cpuinfo.read_text(), re.MULTILINE)
        model = f" ({found.group(1).strip()})" if found else ""
    database = os.environ.get("DATABASE_URL", "")
    database = "PostgreSQL" if database.startswith("postgres") else "SQLite"
    redis = "Redis" if os.environ.get("REDIS_URL") else "no REDIS_URL"
    load = f", load average {os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else ""
    python = f"Python {platform.python_version()}"
    return f"{os.cpu_count()} cores{model}{load}, {database}, {redis}, {python}"


def commit() -> str:
    """HEAD's short hash, marked `+` when the tree differs from it (this file's doc aside)."""
    head = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    changed = subprocess.run(
        ["git", "diff", "--quiet", "HEAD", "--", ".", ":!docs/performance.md"], cwd=ROOT
    ).returncode
    return (head or "unknown") + ("+" if changed else "")


def run(name: str) -> tuple[int, str]:
    """Run bench/NAME.py from the repository root, echoing its output; its code and output."""
    env = {**os.environ, "LOG_LEVEL": os.environ.get("LOG_LEVEL", "WARNING")}
    process = subprocess.Popen(
        [sys.executable, f"bench/{name}.py"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    lines = []
    assert process.stdout is not None
    for line in process.stdout:
        print(line, end="", flush=True)
        lines.append(line)
    return process.wait(), "".join(lines)


def block(name: str, output: str, when: datetime, on: str) -> str:
    stamp = f"{when:%Y-%m-%d %H:%M} UTC, commit {commit()}, {on}"
    body = "\n".join(line.rstrip() for line in output.rstrip("\n").splitlines())
    return f"`python bench/{name}.py` — {stamp}:\n\n```text\n{body}\n```\n"


def main(names: list[str]) -> int:
    names = names or sorted(p.stem for p in (ROOT / "bench").glob("[!_]*.py"))
    doc = DOC.read_text()
    kept = []
    for name in names:
        if not (ROOT / "bench" / f"{name}.py").exists():
            print(f"no bench/{name}.py", file=sys.stderr)
            return 2
        pattern = block_pattern(name)
        if not pattern.search(doc):
            print(f"docs/performance.md has no <!-- bench:{name} --> block", file=sys.stderr)
            return 2
        print(f"== bench/{name}.py", flush=True)
        on = machine()  # before the run: the load average is the machine's, not the bench's
        code, output = run(name)
        last = output.strip().splitlines()[-1] if output.strip() else ""
        if code != 0 or not output.strip() or last.endswith("skipped"):
            kept.append(name if code == 0 else f"{name} (exit {code})")
            continue
        text = block(name, output, datetime.now(UTC), on)
        doc = pattern.sub(lambda match, text=text: match.group(1) + text + match.group(2), doc)
        DOC.write_text(doc)  # after each bench, so a long run interrupted keeps what it measured
    if kept:
        print(f"docs/performance.md kept the earlier figures of: {', '.join(kept)}")
    return 1 if any("exit" in name for name in kept) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
