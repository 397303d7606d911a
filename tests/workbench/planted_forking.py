"""A planted adapter (``urlwb diff --oracle forking=python planted_forking.py``) that leaves a
grandchild of its own behind: at its start it forks a sleeper in a session of its own (``setsid``:
out of the adapter's process group, where the reaper's group kill does not reach), then answers
every input with an error, slowly (0.2 s an input), so that a diff is still running when a test
kills it (tests/workbench/test_hostile_cli.py)."""

import json
import subprocess
import sys
import time


def main():
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"], start_new_session=True,
                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    out = sys.stdout
    out.write(json.dumps({"hello": "urlwb-oracle/1", "name": "forking", "parser": "none", "language": "Python",
                          "version": "0", "family": "other", "kind": "url", "base": False}) + "\n")
    out.flush()
    for line in sys.stdin:
        time.sleep(0.2)
        out.write(json.dumps({"id": json.loads(line)["id"], "error": "planted"}) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
