#!/usr/bin/env python3
"""The README's console example of the bigmont command, run as a new user
would from the top of a clone: with PATH as the system gives it (the
example puts the build's command on it itself), every `$ ` line in one
shell, which must print the block's last line ("same") and leave nothing
in the directory it started in (the key and data go to a temporary one).

usage: tests/readme_example.py README.md CLI_DIR
(CLI_DIR: the chunk64-asm build's cli/, which the README names
$PWD/build/chunk64-asm/cli.)
"""
import os
import shlex
import re
import subprocess
import sys
import tempfile

README_CLI = "$PWD/build/chunk64-asm/cli"


def console_block(text):
    m = re.search(r"^```console\n(.*?)^```$", text, re.M | re.S)
    if m is None:
        raise SystemExit("readme_example: FAILED: no ```console block in the README")
    lines = m.group(1).splitlines()
    return [l[2:] for l in lines if l.startswith("$ ")], [l for l in lines if not l.startswith("$ ")]


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    readme, cli_dir = argv[0], os.path.abspath(argv[1])
    with open(readme) as f:
        commands, output = console_block(f.read())
    failures = []
    if not commands or README_CLI not in commands[0]:
        failures.append("the example's first line does not put %s on PATH: %r"
                        % (README_CLI, commands[:1]))
    # Quoted: a build directory's path may hold a space (the README's
    # $PWD expands in an assignment, which does not split it).
    script = "set -e\n" + "\n".join(c.replace(README_CLI, shlex.quote(cli_dir))
                                     for c in commands) + "\n"
    with tempfile.TemporaryDirectory(prefix="bigmont-readme-") as tmp:
        clone = os.path.join(tmp, "clone")
        scratch = os.path.join(tmp, "tmp")
        os.makedirs(clone)
        os.makedirs(scratch)
        env = {"PATH": "/usr/bin:/bin", "HOME": tmp, "TMPDIR": scratch, "LC_ALL": "C"}
        r = subprocess.run(["bash", "-c", script], cwd=clone, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, universal_newlines=True, timeout=120)
        if r.returncode != 0:
            failures.append("the example failed (status %d):\n%s%s" % (r.returncode, r.stdout,
                                                                       r.stderr))
        elif r.stdout.splitlines()[-1:] != output[-1:]:
            failures.append("the example's last line is not %r:\n%s" % (output[-1:], r.stdout))
        left = os.listdir(clone)
        if left:
            failures.append("the example left %s where it started" % ", ".join(sorted(left)))
    for f in failures:
        print("readme_example: FAILED: %s" % f)
    if not failures:
        print("readme_example: %d commands ran from an empty directory with the system's "
              "PATH, printed %r and left nothing there" % (len(commands), output[-1]))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
