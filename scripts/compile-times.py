#!/usr/bin/env python3
"""Compile time of single sources, one after another, as the build compiles them.

Usage: scripts/compile-times.py BUILD_DIR SOURCE...   (e.g. build src/study/locus.cpp)
Reads BUILD_DIR/compile_commands.json, runs each source's command without ccache into a
scratch object, and prints the compiler's user CPU seconds per source and the sum.
"""
import json
import os
import resource
import subprocess
import sys
import tempfile


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    build, sources = sys.argv[1], sys.argv[2:]
    commands = json.load(open(os.path.join(build, "compile_commands.json")))
    total = 0.0
    with tempfile.TemporaryDirectory() as scratch:
        for source in sources:
            entry = next((e for e in commands
                          if os.path.realpath(e["file"]) == os.path.realpath(source)), None)
            if entry is None:
                sys.exit(f"{source}: not in {build}/compile_commands.json")
            cmd = entry["command"].split()
            if os.path.basename(cmd[0]) == "ccache":
                cmd = cmd[1:]
            cmd[cmd.index("-o") + 1] = os.path.join(scratch, "out.o")
            before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
            subprocess.run(cmd, cwd=entry["directory"], check=True)
            seconds = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - before
            total += seconds
            print(f"{seconds:7.1f} s  {source}", flush=True)
    print(f"{total:7.1f} s  in all")


if __name__ == "__main__":
    main()
