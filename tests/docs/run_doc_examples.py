#!/usr/bin/env python3
"""Run every command of README.md and docs/*.md as typed from the repository root.

The convention (written for users in docs/README.md, "Examples run as typed"):
  * a fenced block marked `sh` is commands: one a line, `\\` continues a line, `#` comments;
  * in any other unmarked/text/console block, a line starting with `$ ` is a command (with `\\`
    continuations) and the lines after it, up to the next `$ ` line, are its output: each shown
    line other than `...` must be a line the command printed (stdout or stderr; runs of blanks
    count as one space);
  * a command exits 0 unless its line ends with `# exit N`, the status it must exit with;
  * a block marked `python` runs as one script with /usr/bin/python3, PYTHONPATH=build/python;
  * a block marked `no-run` (```sh no-run, ```python no-run) is never run;
  * `aerolin-fly` commands run when DISPLAY is set, else under xvfb-run when it is installed,
    else are skipped with the reason; an aerolin-fly command without --duration is interactive
    and must be in a no-run block.

Each page runs in its own scratch directory that holds symbolic links to the repository's
top-level entries and `build` -> the build directory, in page order, so a `mkdir -p out` serves
the commands after it. HOME points into the scratch directory (window logs land there).
A failure names the page and line of the command. Exit status 0 when every command met its
expected status, 1 otherwise (also when no command was found at all).
"""

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*(.*)$")
EXIT_COMMENT = re.compile(r"#\s*exit\s+(\d+)\s*$")
PROMPT_FENCES = {"", "text", "console", "shell-session"}
SHELL_FENCES = {"sh", "bash", "shell"}
COMMAND_TIMEOUT_S = 120


@dataclass
class Example:
  page: Path       # the Markdown file
  line: int        # 1-based line of the command's first line
  kind: str        # "sh" or "python"
  text: str        # the command (continuations joined) or the script
  expected: int    # exit status it must end with
  shown: list = None  # (line number, text) of the output shown under a `$ ` command


def JoinContinued(lines, start):
  """The logical line starting at lines[start] (joining `\\` continuations) and the next index."""
  parts = []
  i = start
  while True:
    line = lines[i].rstrip()
    if line.endswith("\\") and i + 1 < len(lines):
      parts.append(line[:-1])
      i += 1
      continue
    parts.append(line)
    return " ".join(p.strip() for p in parts), i + 1


def ExpectedExit(command):
  m = EXIT_COMMENT.search(command)
  return int(m.group(1)) if m else 0


def ExtractExamples(page):
  """Every example of one Markdown page, in page order."""
  lines = page.read_text(encoding="utf-8").split("\n")
  examples = []
  i = 0
  while i < len(lines):
    m = FENCE.match(lines[i])
    if not m:
      i += 1
      continue
    fence = m.group(2)
    info = m.group(3).split()
    lang = info[0].lower() if info else ""
    no_run = "no-run" in info[1:]
    begin = i + 1
    end = begin
    while end < len(lines) and not lines[end].strip().startswith(fence):
      end += 1
    body = lines[begin:end]
    i = end + 1
    if no_run:
      continue
    if lang == "python":
      examples.append(Example(page, begin, "python", "\n".join(body) + "\n", 0))
    elif lang in SHELL_FENCES:
      j = 0
      while j < len(body):
        text = body[j].strip()
        if not text or text.startswith("#"):
          j += 1
          continue
        command, nxt = JoinContinued(body, j)
        command = command.strip()
        if command.startswith("$ "):
          command = command[2:]
        examples.append(Example(page, begin + j + 1, "sh", command, ExpectedExit(command)))
        j = nxt
    elif lang in PROMPT_FENCES:
      j = 0
      while j < len(body):
        if body[j].startswith("$ "):
          start = j
          command, nxt = JoinContinued(body, j)
          command = command[2:].strip()
          shown = []
          j = nxt
          while j < len(body) and not body[j].startswith("$ "):
            if body[j].strip() and body[j].strip() != "...":
              shown.append((begin + j + 1, body[j]))
            j += 1
          examples.append(Example(page, begin + start + 1, "sh", command, ExpectedExit(command), shown))
        else:
          j += 1
  return examples


def MakeScratch(source, build, root, name):
  """A directory that looks like the repository root after the quick start."""
  scratch = Path(tempfile.mkdtemp(prefix=name + ".", dir=root))
  for entry in source.iterdir():
    if entry.name in (".git", "build", "out"):
      continue
    (scratch / entry.name).symlink_to(entry)
  (scratch / "build").symlink_to(build)
  (scratch / "home").mkdir()
  return scratch


def WindowRunner(env):
  """('', None) to run directly, (prefix, None) to wrap, or (None, reason) to skip."""
  if env.get("DISPLAY"):
    return "", None
  if shutil.which("xvfb-run"):
    return "xvfb-run -a -s '-screen 0 1280x800x24' ", None
  return None, "DISPLAY is not set and xvfb-run is not installed"


def SkipReason(example, build, env):
  if example.kind == "python" or "build/python" in example.text:
    if not (build / "python" / "aerolin").is_dir():
      return "the Python module is not built (build/python/aerolin missing)"
  if "aerolin-fly" in example.text:
    if "--duration" not in example.text:
      return None  # reported as an error: interactive commands belong in a no-run block
    if not (build / "bin" / "aerolin-fly").exists():
      return "aerolin-fly is not built"
    prefix, reason = WindowRunner(env)
    if reason:
      return reason
  return None


def Run(example, scratch, env, python):
  if example.kind == "python":
    script = scratch / f"example_{example.page.stem}_{example.line}.py"
    script.write_text(example.text, encoding="utf-8")
    argv = [python, str(script)]
  else:
    command = example.text
    if "aerolin-fly" in command:
      prefix, _ = WindowRunner(env)
      command = prefix + command
    argv = ["bash", "-c", command]
  # A session of its own, so that a timeout ends the command and every process it started.
  with subprocess.Popen(argv, cwd=scratch, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                        text=True, errors="replace", start_new_session=True) as process:
    try:
      out, err = process.communicate(timeout=COMMAND_TIMEOUT_S)
      return process.returncode, out, err
    except subprocess.TimeoutExpired:
      os.killpg(process.pid, signal.SIGKILL)
      out, err = process.communicate()
      return None, out, f"timed out after {COMMAND_TIMEOUT_S} s"


def Normalized(line):
  return " ".join(line.split())


def MissingOutput(example, out, err):
  """The shown output lines the command did not print."""
  printed = {Normalized(l) for l in (out + "\n" + err).split("\n")}
  return [(n, l) for n, l in (example.shown or []) if Normalized(l) not in printed]


def Tail(text, n=8):
  lines = (text or "").rstrip().split("\n")
  return "\n".join("    | " + l for l in lines[-n:] if l)


def main():
  parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
  parser.add_argument("--source", required=True, type=Path, help="repository root")
  parser.add_argument("--build", required=True, type=Path, help="build directory (bin/, python/)")
  parser.add_argument("--work", type=Path, help="where the scratch directories go (default: a temporary one, removed)")
  parser.add_argument("--python", default="/usr/bin/python3", help="interpreter of the python blocks")
  parser.add_argument("pages", nargs="*", type=Path, help="pages to run (default: README.md and docs/*.md)")
  args = parser.parse_args()
  source = args.source.resolve()
  build = args.build.resolve()
  if not (build / "bin" / "aerolin").exists():
    print(f"error: {build}/bin/aerolin does not exist: build the aerolin target first", file=sys.stderr)
    return 2
  pages = args.pages or [source / "README.md"] + sorted((source / "docs").glob("*.md"))
  pages = [p.resolve() for p in pages]

  work = args.work.resolve() if args.work else Path(tempfile.mkdtemp(prefix="doc-examples."))
  work.mkdir(parents=True, exist_ok=True)
  failures = 0
  ran = skipped = 0
  started = time.monotonic()
  for page in pages:
    examples = ExtractExamples(page)
    if not examples:
      continue
    shown = page.relative_to(source) if page.is_relative_to(source) else page
    scratch = MakeScratch(source, build, work, page.stem)
    env = dict(os.environ)
    env.update(HOME=str(scratch / "home"), PYTHONPATH="build/python", MPLBACKEND="Agg")
    env.pop("XDG_DATA_HOME", None)
    for ex in examples:
      where = f"{shown}:{ex.line}"
      summary = ex.text.split("\n")[0] if ex.kind == "sh" else "(python block)"
      if ex.kind == "sh" and "aerolin-fly" in ex.text and "--duration" not in ex.text:
        print(f"{where}: FAILED: interactive aerolin-fly command (no --duration) outside a "
              f"'sh no-run' block: {summary}")
        failures += 1
        continue
      reason = SkipReason(ex, build, env)
      if reason:
        print(f"{where}: skipped ({reason}): {summary}")
        skipped += 1
        continue
      t0 = time.monotonic()
      status, out, err = Run(ex, scratch, env, args.python)
      seconds = time.monotonic() - t0
      ran += 1
      missing = MissingOutput(ex, out, err) if status == ex.expected else []
      if status == ex.expected and not missing:
        print(f"{where}: ok ({seconds:.2f} s): {summary}")
      elif status == ex.expected:
        failures += 1
        print(f"{where}: FAILED: output shown on the page was not printed: {summary}")
        for n, l in missing:
          print(f"    {shown}:{n}: {l.strip()}")
      else:
        failures += 1
        got = "no exit status" if status is None else f"exit status {status}"
        print(f"{where}: FAILED: {got}, expected {ex.expected}: {summary}")
        if err.strip():
          print(Tail(err))
        elif out.strip():
          print(Tail(out))
  total = time.monotonic() - started
  if not args.work:
    shutil.rmtree(work, ignore_errors=True)
  print(f"{ran} examples run, {skipped} skipped, {failures} failed, in {total:.1f} s")
  if ran == 0:
    print("error: no example ran", file=sys.stderr)
    return 1
  return 1 if failures else 0


if __name__ == "__main__":
  sys.exit(main())
