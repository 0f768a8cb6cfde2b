#!/usr/bin/env python3
"""The example runner fails, naming file:line, on each kind of broken example.

tests/docs/fixtures/failing_examples.md holds one of each: shown output the command does not
print (line 3), an unexpected exit status (line 5), an interactive window outside a no-run block
(line 10); line 9 states its exit status and passes.
Usage: runner_selftest.py RUNNER SOURCE BUILD
"""
import subprocess
import sys
from pathlib import Path

runner, source, build = sys.argv[1:4]
page = Path(__file__).resolve().parent / "fixtures" / "failing_examples.md"
done = subprocess.run([sys.executable, runner, "--source", source, "--build", build, str(page)],
                      capture_output=True, text=True)
print(done.stdout, done.stderr)
page = page.relative_to(Path(source).resolve())  # pages inside the source are named from its root
expected = [
    f"{page}:2: FAILED: output shown on the page was not printed",
    f"{page}:3: short period                      -9.999",
    f"{page}:5: FAILED: exit status 1, expected 0",
    f"{page}:9: ok",
    f"{page}:10: FAILED: interactive aerolin-fly command",
    "3 examples run, 0 skipped, 3 failed",
]
missing = [e for e in expected if e not in done.stdout]
if done.returncode != 1 or missing:
  print(f"runner exit status {done.returncode} (expected 1); missing from its report: {missing}")
  sys.exit(1)
print("the runner reports each broken example with its file:line")
